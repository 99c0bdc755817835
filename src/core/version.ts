/** The crashlab version recorded in every provenance digest. Kept in step with package.json by a test. */
export const CRASHLAB_VERSION = "0.1.0";
