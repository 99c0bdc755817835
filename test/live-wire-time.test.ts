import { describe, expect, it } from "vitest";
import { CLOSE_FRAME_KEY, WireEnd } from "../src/core/live";
import { RealClock, VirtualClock } from "../src/core/time/clock";

const client = { localAddress: "127.0.0.1", localPort: 50000, remoteAddress: "127.0.0.1", remotePort: 8080 };
const server = { localAddress: "::ffff:127.0.0.1", localPort: 8080, remoteAddress: "::ffff:127.0.0.1", remotePort: 50000 };

/** Let the VirtualClock observe idleness a few times over. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe("the wire-hold rule (a frame holds virtual time from send until handled)", () => {
  it("keeps virtual time still while a frame is in flight, and lets it move once handled", async () => {
    const clock = new VirtualClock();
    const sender = new WireEnd(clock, client);
    const receiver = new WireEnd(clock, server); // IPv4-mapped addresses pair with plain IPv4
    let woke = false;
    void clock.sleep(100).then(() => (woke = true));
    sender.sending("frame-1");
    await settle();
    expect(woke).toBe(false);
    expect(clock.now()).toBe(0);
    const handled = receiver.received("frame-1");
    await settle();
    expect(woke).toBe(false); // still handling
    handled();
    await settle();
    expect(woke).toBe(true);
    expect(clock.now()).toBe(100);
  });

  it("releases frames that can no longer arrive when the receiving end closes", async () => {
    const clock = new VirtualClock();
    const sender = new WireEnd(clock, client);
    const receiver = new WireEnd(clock, server);
    let woke = false;
    void clock.sleep(50).then(() => (woke = true));
    sender.sending("lost frame");
    sender.sending(CLOSE_FRAME_KEY);
    await settle();
    expect(woke).toBe(false);
    receiver.dispose();
    await settle();
    expect(woke).toBe(true);
  });

  it("takes no hold without a peer on the same clock, so a remote service never freezes time", async () => {
    const clock = new VirtualClock();
    const lonely = new WireEnd(clock, client);
    new WireEnd(new VirtualClock(), server); // the peer lives on another clock
    let woke = false;
    void clock.sleep(10).then(() => (woke = true));
    lonely.sending("frame");
    await settle();
    expect(woke).toBe(true);
    // And nothing at all happens on real time.
    const real = new WireEnd(new RealClock(), client);
    real.sending("frame");
    real.received("frame")();
    real.dispose();
  });
});
