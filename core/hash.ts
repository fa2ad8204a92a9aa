// The one way ccrepro hashes bytes it records or compares: sha256, as lowercase hex.
import crypto from "node:crypto";

/** The sha256 of `bytes` (a string is hashed as UTF-8), as 64 lowercase hex digits. */
export function sha256Hex(bytes: Uint8Array | string): string {
  return crypto.createHash("sha256").update(bytes).digest("hex");
}
