import { Problem } from './problem.js';

interface Range {
  type: string;
  q: number;
}

function parseAccept(header: string): Range[] {
  return header
    .split(',')
    .map((part) => {
      const [type = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { type: type.trim().toLowerCase(), q: q === undefined ? 1 : Number(q) };
    })
    .filter((r) => r.type.length > 0);
}

/** q of the most specific range matching `type` (exact beats type/* beats *\/*), 0 if none. */
function qualityOf(ranges: Range[], type: string): number {
  const [major] = type.split('/');
  for (const candidate of [type, `${major}/*`, '*/*']) {
    const hit = ranges.find((r) => r.type === candidate);
    if (hit) return hit.q;
  }
  return 0;
}

/**
 * Whether to answer in XML. JSON wins ties; XML only where the operation offers it; an Accept
 * that admits neither is a 406.
 */
export function wantsXml(accept: string | undefined, xmlOffered: boolean): boolean {
  if (!accept || accept.trim() === '') return false;
  const ranges = parseAccept(accept);
  const json = qualityOf(ranges, 'application/json');
  const xml = xmlOffered
    ? Math.max(qualityOf(ranges, 'application/xml'), qualityOf(ranges, 'text/xml'))
    : 0;
  if (json === 0 && xml === 0) {
    const offered = xmlOffered ? 'application/json or application/xml' : 'application/json';
    throw new Problem(406, 'not_acceptable', `this operation answers ${offered} only`);
  }
  return xml > json;
}
