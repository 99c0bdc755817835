/** Reading a settings file a user named or that sits beside the package (crashlab.toml, .env): a regular file of bounded size, as text. */
import { InputFileError, readInputFile } from "../dataset/input-file";
import { SettingsError } from "./errors";

/** A settings file holds settings, not data: anything larger is not one. */
const MAX_SETTINGS_FILE_BYTES = 1024 * 1024;

/** The file's text (a byte-order mark dropped); a missing file, a folder or one that cannot be read is refused naming `what` and `shown`, with `fix`. */
export function readSettingsFile(file: string, shown: string, what: string, fix: string): string {
  try {
    return readInputFile(file, MAX_SETTINGS_FILE_BYTES).toString("utf8").replace(/^\uFEFF/, "");
  } catch (error) {
    if (!(error instanceof InputFileError)) throw error;
    const why = error.problem === "not_a_file" && error.detail.includes("directory") ? "it is a folder, not a file" : error.detail;
    throw new SettingsError(`${what} ${shown}: ${why}; ${fix}`);
  }
}
