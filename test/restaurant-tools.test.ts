import { describe, expect, it } from "vitest";
import { RESTAURANT_FACTS } from "../examples/restaurant/facts";
import { RESTAURANT_BACKEND_INSTRUCTIONS } from "../examples/restaurant/instructions";
import { parseSeating } from "../examples/restaurant/parse";
import { RESTAURANT_TOOLS } from "../examples/restaurant/tools";

/** The restaurant's tool declarations say what its instructions and its data say: patio is its own seating. */
describe("the seating argument", () => {
  const seatingOf = (tool: string) => (RESTAURANT_TOOLS.find((t) => t.name === tool)!.parameters as { properties: Record<string, { enum?: string[]; description: string }> }).properties.seating!;

  it("offers patio as its own value and says outside, terrace and garden mean outdoor", () => {
    for (const tool of ["check_availability", "create_reservation"]) {
      const seating = seatingOf(tool);
      expect(seating.enum).toEqual(["indoor", "outdoor", "patio", "bar"]);
      expect(seating.description).toBe("Seating preference, only when the caller asked for one: indoor, outdoor, patio or bar. Patio is its own choice; outside, terrace and garden mean outdoor.");
      expect(seating.description).not.toMatch(/patio means outdoor/i);
    }
    expect(RESTAURANT_FACTS.seating).toContain("patio");
    expect(RESTAURANT_BACKEND_INSTRUCTIONS).toMatch(/indoor, outdoor, patio or bar; outside, terrace and garden\s+mean outdoor/);
  });

  it("agrees with how the assistant reads seating", () => {
    expect(parseSeating("a table on the patio")).toBe("patio");
    expect(parseSeating("somewhere on the terrace")).toBe("outdoor");
    expect(parseSeating("outside in the garden")).toBe("outdoor");
    expect(parseSeating("we'd like to sit outside")).toBe("outdoor");
  });
});
