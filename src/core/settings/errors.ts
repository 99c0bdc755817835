import { UserError } from "../user-error";

/** A run setting the user got wrong — a config file, an env file, a PLAN's defaults, a stored run.json: exit 2, one paragraph. */
export class SettingsError extends UserError {
  override readonly name = "SettingsError";
}
