// The dataset folder's public face: the schema and the loader.
export * from "./schema";
export * from "./load";
