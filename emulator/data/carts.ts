import { hash, pick } from './random.js';

export interface StoredCustomer {
  FirstName: string;
  LastName: string;
  Address1: string;
  Address2: string | null;
  City: string;
  PostalCode: string;
  State: string;
  Country: string;
  CustomerEmail: string;
  CompanyName: string;
  ExternalCustomerKey: string;
  OptIn: boolean;
  VatId: string;
}

export interface Cart {
  vendorOrderCode: string;
  type: 'standard' | 'reseller';
  billing: StoredCustomer;
  shipping?: StoredCustomer;
  reseller?: StoredCustomer;
}

const FIRST = ['Ada', 'Grace', 'Linus', 'Margaret', 'Alan', 'Katherine'];
const LAST = ['Lovelace', 'Hopper', 'Torvalds', 'Hamilton', 'Turing', 'Johnson'];

/** Carts as they are when created: every third one is a reseller cart; each has its Billing. */
export function seedCarts(seed: number, count: number): Cart[] {
  return Array.from({ length: count }, (_, n) => {
    const h = hash(seed, 0xca7, n);
    const first = pick(h, FIRST);
    const last = pick(h >>> 8, LAST);
    return {
      vendorOrderCode: `SO-${String(h % 1_000_000).padStart(6, '0')}-${n + 1}`,
      type: n % 3 === 2 ? 'reseller' : 'standard',
      billing: {
        FirstName: first,
        LastName: last,
        Address1: `${1 + (h % 200)} Main Street`,
        Address2: null,
        City: 'Springfield',
        PostalCode: String(10000 + (h % 89999)),
        State: 'IL',
        Country: 'US',
        CustomerEmail: `${first}.${last}@example.com`.toLowerCase(),
        CompanyName: `${last} Holdings`,
        ExternalCustomerKey: `CUST-${h % 100000}`,
        OptIn: h % 2 === 0,
        VatId: `US${h % 1_000_000_000}`,
      },
    };
  });
}
