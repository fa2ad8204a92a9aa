// Signatures for the thinking blocks the mock serves, and the check that one sent back still matches its text. The
// real API signs each thinking block and answers 400 when a block comes back with its text or signature changed
// (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#preserving-thinking-blocks); the mock's
// signature is a digest of the text, so the check needs no memory of what was served.
import { createHash } from "node:crypto";

// Marks a signature as the mock's own, so a scripted fixed signature ("mock-signature") is never judged.
const PREFIX = "ccrepro-signed.";

/** The signature the mock serves with a signed thinking block of this text. */
export const signThinking = (thinking: string): string => PREFIX + createHash("sha256").update(thinking, "utf8").digest("base64url");

/** Whether a signature is one the mock made (by its prefix), whatever text it was made for. */
export const isMockSigned = (signature: string): boolean => signature.startsWith(PREFIX);

/** Whether a thinking block's signature is the mock's signature of exactly this text. */
export const signatureMatches = (thinking: string, signature: string): boolean => signThinking(thinking) === signature;
