import { ValidationError } from '../errors/errors.js';

/**
 * Builds an operation's path from its template, each value encoded as one segment. Values come
 * validated for their operation; this is the last guard, so that no value, whatever slipped
 * through, can add a segment (`/`), a query (`?`), or move the request up the path (`.`, `..`,
 * which URL parsers resolve, encoded or not).
 *
 * @example
 * operationPath`/api/ecom/shop/carts/${code}/customers`;
 */
export function operationPath(template: TemplateStringsArray, ...values: string[]): string {
  let path = template[0] ?? '';
  values.forEach((value, i) => {
    if (value === '' || value === '.' || value === '..')
      throw new ValidationError('path', `a path segment cannot be "${value}"`);
    path += encodeURIComponent(value) + (template[i + 1] ?? '');
  });
  return path;
}
