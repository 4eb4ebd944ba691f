import { SkywatchConfigError } from './errors.js';

const KEYCODE = /^[A-Z0-9]{4}(-[A-Z0-9]{4}){4}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const TIME_OF_DAY = /^([01]\d|2[0-3]):([0-5]\d)$/;

const show = (value: unknown): string =>
  typeof value === 'string' ? `'${value}'` : JSON.stringify(value);

/**
 * Collects validation problems instead of stopping at the first, so one synth lists them all.
 * Each check returns the value typed as wanted; a failed check returns a placeholder that is
 * never used, because {@link Checker.throwIfFailed} runs before the settings are.
 */
export class Checker {
  private readonly issues: string[] = [];
  private readonly failedNames = new Set<string>();

  fail(name: string, problem: string): void {
    this.issues.push(`${name} ${problem}`);
    this.failedNames.add(name.replace(/\[\d+\]$/, ''));
  }

  failed(name: string): boolean {
    return this.failedNames.has(name);
  }

  throwIfFailed(): void {
    if (this.issues.length > 0) throw new SkywatchConfigError(this.issues);
  }

  httpsUrl(name: string, value: unknown): string {
    if (typeof value !== 'string' || value.length === 0) {
      this.fail(name, `is required: the https URL of the service (got ${show(value)})`);
      return '';
    }
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      this.fail(name, `must be an absolute https URL; got ${show(value)}`);
      return '';
    }
    if (url.protocol !== 'https:') {
      this.fail(name, `must use https (tokens travel on it); got ${show(value)}`);
    }
    return value.replace(/\/+$/, '');
  }

  keycodes(name: string, value: unknown): string[] {
    if (!Array.isArray(value) || value.length === 0) {
      this.fail(name, `must list at least one GSM keycode; got ${show(value)}`);
      return [];
    }
    const keys: string[] = [];
    value.forEach((item, i) => {
      const key = typeof item === 'string' ? item.trim().toUpperCase() : '';
      if (!KEYCODE.test(key)) {
        this.fail(
          `${name}[${i}]`,
          `must be a keycode like ABCD-EFGH-IJKL-MNOP-QRST; got ${show(item)}`,
        );
      } else if (keys.includes(key)) {
        this.fail(`${name}[${i}]`, `repeats ${key}`);
      } else {
        keys.push(key);
      }
    });
    return keys;
  }

  optionalEmail(name: string, value: unknown): string | undefined {
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'string' || !EMAIL.test(value)) {
      this.fail(name, `must be an e-mail address; got ${show(value)}`);
      return undefined;
    }
    return value;
  }

  int(name: string, value: unknown, min: number, max: number): number {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      this.fail(name, `must be an integer from ${min} to ${max}; got ${show(value)}`);
      return min;
    }
    return value;
  }

  number(name: string, value: unknown, min: number, max: number): number {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
      this.fail(name, `must be a number from ${min} to ${max}; got ${show(value)}`);
      return min;
    }
    return value;
  }

  bool(name: string, value: unknown): boolean {
    if (typeof value !== 'boolean') {
      this.fail(name, `must be true or false; got ${show(value)}`);
      return false;
    }
    return value;
  }

  oneOf<T extends string | number>(name: string, value: unknown, allowed: readonly T[]): T {
    if (!allowed.includes(value as T)) {
      this.fail(name, `must be one of ${allowed.join(', ')}; got ${show(value)}`);
      return allowed[0] as T;
    }
    return value as T;
  }

  timeOfDay(name: string, value: unknown): string {
    if (typeof value !== 'string' || !TIME_OF_DAY.test(value)) {
      this.fail(name, `must be a UTC time of day as HH:MM (00:00–23:59); got ${show(value)}`);
      return '00:00';
    }
    return value;
  }
}
