import { ValidationError } from '../errors/errors.js';
import { AddCustomersToCartRequest } from '../schemas/cart.js';
import { formatPath } from '../schemas/common.js';
import * as z from '../zod.js';

/**
 * Checks a 4.10 body against the customer rules (required fields, country code, e-mail, types)
 * and raises a ValidationError naming the first field at fault, e.g. `Shipping.Country`.
 *
 * @example
 * validateCartRequest({ Shipping: customer });
 */
export function validateCartRequest(body: AddCustomersToCartRequest): AddCustomersToCartRequest {
  const result = z.safeParse(AddCustomersToCartRequest, body);
  if (result.success) return body;
  const issue = result.error.issues[0];
  const field = formatPath(issue?.path ?? []);
  const rule =
    issue?.code === 'invalid_type' && issue.input === undefined
      ? 'is required'
      : (issue?.message ?? 'is invalid');
  throw new ValidationError(field, rule, { cause: result.error });
}
