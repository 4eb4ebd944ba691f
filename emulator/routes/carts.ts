import type { StoredCustomer } from '../data/carts.js';
import { invalidFields, notFound } from '../http/problem.js';
import { jsonReply, type Reply, XML_TYPE } from '../http/respond.js';
import { fromXml, toXml } from '../http/xml.js';
import { validateCartRequest } from './cart-validation.js';
import type { RouteContext } from './context.js';

const TYPES = { Billing: 1, Shipping: 2, Reseller: 3 } as const;

function responseCustomer(customer: StoredCustomer, type: keyof typeof TYPES) {
  return { ...customer, CustomerTypeId: TYPES[type], CustomerTypeDescription: type };
}

function readBody(ctx: RouteContext, isXml: boolean): unknown {
  try {
    if (!isXml) return JSON.parse(ctx.body);
    const { root, value } = fromXml(ctx.body);
    if (root !== 'AddCustomersToCartRequestServiceModel') {
      throw invalidFields({
        body: [`root element must be AddCustomersToCartRequestServiceModel (got ${root})`],
      });
    }
    return value;
  } catch (error) {
    if (error instanceof Error && error.name === 'Problem') throw error;
    throw invalidFields({ body: [`is not well-formed ${isXml ? 'XML' : 'JSON'}`] });
  }
}

/** 4.10 POST /api/ecom/shop/carts/{vendorOrderCode}/customers */
export function addCartCustomers(ctx: RouteContext, isXmlBody: boolean): Reply {
  const code = ctx.params[0] ?? '';
  const cart = ctx.state.carts.get(code);
  if (!cart) throw notFound(`no cart has the vendor order code ${code}`);
  const { shipping, reseller } = validateCartRequest(
    readBody(ctx, isXmlBody),
    isXmlBody,
    cart.type,
  );
  cart.shipping = shipping;
  // Reseller only means something on reseller carts; other carts ignore it (spec 4.10).
  if (reseller) cart.reseller = reseller;
  const answer: Record<string, unknown> = { Billing: responseCustomer(cart.billing, 'Billing') };
  if (cart.reseller) answer.Reseller = responseCustomer(cart.reseller, 'Reseller');
  answer.Shipping = responseCustomer(cart.shipping, 'Shipping');
  if (!ctx.xml) return jsonReply(answer);
  return {
    status: 200,
    contentType: XML_TYPE,
    body: toXml('AddCustomersToCartResponseServiceModel', answer),
  };
}
