// Shared by tests that wait for another process to do something: polls a condition until it holds or time runs out.
import { setTimeout as delay } from "node:timers/promises";

// True as soon as `condition` holds, false if it still does not after `ms`.
export async function eventually(condition: () => boolean, ms = 3000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await delay(25);
  }
  return condition();
}
