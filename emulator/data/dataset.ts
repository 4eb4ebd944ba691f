import { keycode, uuid } from './ids.js';
import { between, hash, pick } from './random.js';
import { DAY_MS } from './time-format.js';

export interface Site {
  gsmIndex: number;
  localIndex: number;
  key: string;
  id: string;
  name: string;
  licenseType: 'Full' | 'Trial';
  expiry: number;
  stateChanged: number;
  dnspEnabled: boolean;
  dnspPolicyId: string;
  dnspPolicyName: string;
  /** First endpoint index of the site's contiguous range, and its length. */
  start: number;
  count: number;
}

export interface Gsm {
  index: number;
  key: string;
  name: string;
  licenseType: 'Full' | 'Trial';
  expiry: number;
  sites: Site[];
  /** Endpoints generated from the seed: indexes 0..baseCount-1. */
  baseCount: number;
  /** Site (local index) of each enrolled endpoint; endpoint baseCount + k is enrolled[k]. */
  enrolled: number[];
}

export interface DatasetShape {
  seed: number;
  gsmCount: number;
  sitesPerGsm: number;
  endpointsPerGsm: number;
  /** 00:00 UTC of the day the clock started; every generated instant is relative to it. */
  anchor: number;
}

const COMPANY_WORDS = ['Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Vandelay', 'Stark'];
const SITE_WORDS = ['Dental', 'Legal', 'Logistics', 'Clinic', 'Bakery', 'Studio', 'Garage'];

/** Splits `total` endpoints over `sites` with uneven, seed-chosen weights. */
function siteSizes(seed: number, gsm: number, sites: number, total: number): number[] {
  const weights = Array.from({ length: sites }, (_, s) => between(hash(seed, 0x51e, gsm, s), 1, 4));
  const sum = weights.reduce((a, b) => a + b, 0);
  const sizes = weights.map((w) => Math.floor((total * w) / sum));
  const assigned = sizes.reduce((a, b) => a + b, 0);
  sizes[sites - 1] = (sizes[sites - 1] ?? 0) + total - assigned;
  return sizes;
}

/** The consoles, sites and endpoint layout of one seed. Endpoint fields live elsewhere. */
export class Dataset {
  readonly gsms: Gsm[] = [];
  private readonly gsmByKey = new Map<string, Gsm>();
  private readonly siteByKey = new Map<string, Site>();
  private readonly siteByUuid = new Map<string, Site>();

  constructor(readonly shape: DatasetShape) {
    const { seed, anchor } = shape;
    for (let g = 0; g < shape.gsmCount; g++) {
      const gsm: Gsm = {
        index: g,
        key: keycode(seed, 0x65, g),
        name: `${pick(hash(seed, 0x66, g), COMPANY_WORDS)} MSP ${g + 1}`,
        licenseType: 'Full',
        expiry: anchor + between(hash(seed, 0x67, g), 200, 700) * DAY_MS,
        sites: [],
        baseCount: shape.endpointsPerGsm,
        enrolled: [],
      };
      let start = 0;
      siteSizes(seed, g, shape.sitesPerGsm, shape.endpointsPerGsm).forEach((count, s) => {
        const h = hash(seed, 0x517e, g, s);
        const site: Site = {
          gsmIndex: g,
          localIndex: s,
          key: keycode(seed, 0x5173, g, s),
          id: uuid(seed, 0x51d, g, s),
          name: `${pick(h, COMPANY_WORDS)} ${pick(h >>> 8, SITE_WORDS)} ${s + 1}`,
          licenseType: h % 5 === 4 ? 'Trial' : 'Full',
          expiry: anchor + between(h >>> 4, 30, 700) * DAY_MS,
          stateChanged: anchor - between(h >>> 6, 30, 900) * DAY_MS,
          dnspEnabled: h % 3 !== 2,
          dnspPolicyId: uuid(seed, 0xd45, g, s),
          dnspPolicyName: pick(h >>> 10, ['Default Policy', 'Strict Filtering', 'Office Hours']),
          start,
          count,
        };
        start += count;
        gsm.sites.push(site);
        this.siteByKey.set(site.key, site);
        this.siteByUuid.set(site.id, site);
      });
      this.gsms.push(gsm);
      this.gsmByKey.set(gsm.key, gsm);
    }
  }

  gsm(key: string): Gsm | undefined {
    return this.gsmByKey.get(key.toUpperCase());
  }

  site(key: string): Site | undefined {
    return this.siteByKey.get(key.toUpperCase());
  }

  siteById(id: string): Site | undefined {
    return this.siteByUuid.get(id.toLowerCase());
  }

  /** Number of endpoint indexes a GSM has, enrolled ones included. */
  size(gsm: Gsm): number {
    return gsm.baseCount + gsm.enrolled.length;
  }

  /** The site of an endpoint index. Sites are few, so a binary search over starts is cheap. */
  siteOf(gsm: Gsm, index: number): Site {
    if (index >= gsm.baseCount) {
      return gsm.sites[gsm.enrolled[index - gsm.baseCount] ?? 0] as Site;
    }
    let lo = 0;
    let hi = gsm.sites.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((gsm.sites[mid] as Site).start <= index) lo = mid;
      else hi = mid - 1;
    }
    return gsm.sites[lo] as Site;
  }

  /** Adds `count` endpoints to a site, after every existing index; returns their indexes. */
  enrol(site: Site, count: number): number[] {
    const gsm = this.gsms[site.gsmIndex] as Gsm;
    const added: number[] = [];
    for (let i = 0; i < count; i++) {
      added.push(this.size(gsm));
      gsm.enrolled.push(site.localIndex);
    }
    return added;
  }

  /** Endpoint indexes of a site from `from` on, in order: its range, then its enrolled ones. */
  *siteIndexes(site: Site, from = 0): Generator<number> {
    const gsm = this.gsms[site.gsmIndex] as Gsm;
    for (let i = Math.max(from, site.start); i < site.start + site.count; i++) yield i;
    for (let k = Math.max(0, from - gsm.baseCount); k < gsm.enrolled.length; k++) {
      if (gsm.enrolled[k] === site.localIndex) yield gsm.baseCount + k;
    }
  }

  /** Every endpoint index of a GSM from `from` on. */
  *gsmIndexes(gsm: Gsm, from = 0): Generator<number> {
    const end = this.size(gsm);
    for (let i = from; i < end; i++) yield i;
  }
}
