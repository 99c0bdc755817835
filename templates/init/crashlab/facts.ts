/** Public facts about the shop: what the assistant may say without its backend. */
export const SHOP_FACTS = {
  name: "Spoke and Chain",
  hours: "Monday to Saturday, 9 a.m. to 6 p.m.",
  address: "3 Mill Lane",
  days: ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday"],
} as const;

export type Day = (typeof SHOP_FACTS.days)[number];
