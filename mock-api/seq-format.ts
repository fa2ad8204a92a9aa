// How a request's seq appears in names (body files, message and request ids): zero-padded so names sort in order.
export function paddedSeq(seq: number): string {
  return String(seq).padStart(6, "0");
}
