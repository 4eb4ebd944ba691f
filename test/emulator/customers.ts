/** The smallest valid 4.10 Shipping customer, for tests that only need a cart call to succeed. */
export const SHIPPING = {
  FirstName: 'Ada',
  LastName: 'Lovelace',
  Address1: '12 Analytical Row',
  City: 'London',
  PostalCode: 'NW1 2BE',
  Country: 'GB',
  CustomerEmail: 'ada@example.com',
};
