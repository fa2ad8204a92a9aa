// Number options parsed as the user means them, or refused with a UserError that names the option.
import { UserError } from "../core/errors.ts";

export function wholeNumber(option: string, min: number, max: number) {
  return (text: string): number => {
    const value = Number(text);
    if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value < min || value > max) {
      throw new UserError(`${option} takes a whole number from ${min} to ${max}, not "${text}"`, "BAD_ARGUMENT");
    }
    return value;
  };
}

export function positiveNumber(option: string) {
  return (text: string): number => {
    const value = Number(text);
    if (text.trim() === "" || !Number.isFinite(value) || value <= 0) {
      throw new UserError(`${option} takes a number above 0, not "${text}"`, "BAD_ARGUMENT");
    }
    return value;
  };
}
