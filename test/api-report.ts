/**
 * The API report of `crashlab/alpha`: every name src/alpha/index.ts exports, with its kind and signature,
 * read with the TypeScript compiler. api/alpha.api.md holds it checked in, so a change to the public
 * surface shows in review; test/api-report.test.ts fails when the two differ, and
 * `pnpm api:report` (scripts/api-report.ts) writes the file again.
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const ENTRY = join(ROOT, "src/alpha/index.ts");
export const API_REPORT_FILE = join(ROOT, "api/alpha.api.md");

const TYPE_FLAGS = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType | ts.TypeFormatFlags.WriteArrowStyleSignature;

export interface ApiEntry {
  name: string;
  kind: "class" | "function" | "const" | "interface" | "type" | "namespace" | "enum";
  /** The declaration as a package author sees it: signatures, members, or a type; one or more lines. */
  signature: string;
}

/** The exports of src/alpha/index.ts, sorted by name. */
export function apiEntries(): ApiEntry[] {
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!config) throw new Error("tsconfig.json could not be read");
  const program = ts.createProgram([ENTRY], { ...config.options, noEmit: true });
  const checker = program.getTypeChecker();
  const entry = program.getSourceFile(ENTRY)!;
  const moduleSymbol = checker.getSymbolAtLocation(entry)!;
  const entries = checker.getExportsOfModule(moduleSymbol).map((exported) => describe(checker, exported));
  for (const e of entries) e.signature = portable(e.signature);
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function describe(checker: ts.TypeChecker, exported: ts.Symbol): ApiEntry {
  const name = exported.getName();
  const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
  const declaration = symbol.declarations?.[0];
  if (!declaration) throw new Error(`${name}: no declaration`);
  const from = declaration.getSourceFile().fileName;
  const external = from.includes("/node_modules/");
  // `export type { TrialRecord }` of a schema and its type of one name: the type is what is exported.
  const flags = typeOnly(exported) && symbol.flags & ts.SymbolFlags.Type ? symbol.flags & ts.SymbolFlags.Type : symbol.flags;

  if (flags & ts.SymbolFlags.Class) {
    const type = checker.getTypeOfSymbolAtLocation(symbol, declaration);
    const constructors = type.getConstructSignatures().map((s) => `constructor${checker.signatureToString(s, declaration, TYPE_FLAGS & ~ts.TypeFormatFlags.WriteArrowStyleSignature)}`.replace(/: [^:]*$/, ""));
    const instance = checker.getDeclaredTypeOfSymbol(symbol);
    const members = instance.getProperties().filter((p) => isPublic(p)).map((p) => member(checker, p, declaration));
    const base = instance.getBaseTypes()?.map((t) => checker.typeToString(t, declaration, TYPE_FLAGS)) ?? [];
    return { name, kind: "class", signature: block(`class ${name}${base.length ? ` extends ${base.join(", ")}` : ""}`, [...constructors, ...members]) };
  }
  if (flags & ts.SymbolFlags.Function) {
    const overloads = symbol.declarations!.filter(ts.isFunctionDeclaration);
    const withoutBody = overloads.filter((d) => !d.body);
    const signatures = (withoutBody.length > 0 ? withoutBody : overloads).map((d) => `function ${name}${signatureText(checker, d)}`);
    return { name, kind: "function", signature: signatures.join("\n") };
  }
  if (flags & ts.SymbolFlags.Enum) return { name, kind: "enum", signature: `enum ${name}` };
  if (flags & (ts.SymbolFlags.ValueModule | ts.SymbolFlags.NamespaceModule) && !(flags & ts.SymbolFlags.Variable)) {
    const module = external ? from.replace(/^.*\/node_modules\/((?:@[^/]+\/)?[^/]+).*$/, "$1") : from;
    return { name, kind: "namespace", signature: `namespace ${name} (from ${module})` };
  }
  if (flags & ts.SymbolFlags.Variable) {
    const type = checker.getTypeOfSymbolAtLocation(symbol, declaration);
    return { name, kind: "const", signature: `const ${name}: ${checker.typeToString(type, declaration, TYPE_FLAGS)}` };
  }
  if (flags & ts.SymbolFlags.Interface) {
    const type = checker.getDeclaredTypeOfSymbol(symbol);
    const params = typeParameters(checker, type, declaration);
    const base = type.isClassOrInterface() ? (checker.getBaseTypes(type as ts.InterfaceType).map((t) => checker.typeToString(t, declaration, TYPE_FLAGS)) ?? []) : [];
    const members = type.getProperties().map((p) => member(checker, p, declaration));
    const calls = type.getCallSignatures().map((s) => checker.signatureToString(s, declaration, TYPE_FLAGS & ~ts.TypeFormatFlags.WriteArrowStyleSignature) + ";");
    return { name, kind: "interface", signature: block(`interface ${name}${params}${base.length ? ` extends ${base.join(", ")}` : ""}`, [...calls, ...members]) };
  }
  if (flags & ts.SymbolFlags.TypeAlias) {
    const alias = symbol.declarations!.find(ts.isTypeAliasDeclaration)!;
    const params = alias.typeParameters ? `<${alias.typeParameters.map((p) => p.getText()).join(", ")}>` : "";
    // The alias as written: a type computed from a schema (`z.output<typeof X>`) stays one line.
    return { name, kind: "type", signature: `type ${name}${params} = ${oneLine(alias.type.getText())}` };
  }
  throw new Error(`${name}: an export of an unexpected kind (symbol flags ${flags})`);
}

function typeParameters(checker: ts.TypeChecker, type: ts.Type, at: ts.Node): string {
  const params = (type as ts.InterfaceType).typeParameters;
  return params && params.length > 0 ? `<${params.map((p) => checker.typeToString(p, at, TYPE_FLAGS)).join(", ")}>` : "";
}

function isPublic(symbol: ts.Symbol): boolean {
  const declaration = symbol.declarations?.[0];
  if (!declaration) return true;
  if (ts.getCombinedModifierFlags(declaration) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) return false;
  return !symbol.getName().startsWith("#") && !symbol.getName().startsWith("__");
}

/** Whether an export is type-only: `export type { X }`, `export { type X }` or `export type *`. */
function typeOnly(exported: ts.Symbol): boolean {
  const declaration = exported.declarations?.[0];
  if (!declaration) return false;
  if (ts.isExportSpecifier(declaration)) return declaration.isTypeOnly || declaration.parent.parent.isTypeOnly;
  return false;
}

/** `<T>(a: A, b?: B): R` as declared: the types as written, the checker's where none is written. */
function signatureText(checker: ts.TypeChecker, d: ts.SignatureDeclaration): string {
  const params = d.typeParameters ? `<${d.typeParameters.map((p) => oneLine(p.getText())).join(", ")}>` : "";
  const args = d.parameters.map((p) => {
    const optional = p.questionToken || p.initializer ? "?" : "";
    const type = p.type ? oneLine(p.type.getText()) : checker.typeToString(checker.getTypeAtLocation(p), p, TYPE_FLAGS);
    return `${p.dotDotDotToken ? "..." : ""}${oneLine(p.name.getText())}${optional}: ${type}`;
  });
  const signature = checker.getSignatureFromDeclaration(d);
  const returns = d.type ? oneLine(d.type.getText()) : signature ? checker.typeToString(signature.getReturnType(), d, TYPE_FLAGS) : "void";
  return `${params}(${args.join(", ")}): ${returns}`;
}

/** Absolute paths the checker writes in `import("…")` types, made the same on every machine. */
function portable(text: string): string {
  return text
    .replace(/import\("[^"]*\/node_modules\/(?:\.pnpm\/[^/"]+\/node_modules\/)?((?:@[^/"]+\/)?[^/"]+)[^"]*"\)/g, 'import("$1")')
    .replaceAll(`import("${ROOT}/`, 'import("');
}

/** One member: `name?: type;` or its method signatures, as declared where a type is written. */
function member(checker: ts.TypeChecker, symbol: ts.Symbol, at: ts.Node): string {
  const declaration = symbol.declarations?.[0];
  if (declaration && (ts.isMethodSignature(declaration) || ts.isMethodDeclaration(declaration)))
    return symbol.declarations!.filter((d): d is ts.MethodSignature | ts.MethodDeclaration => ts.isMethodSignature(d) || ts.isMethodDeclaration(d)).filter((d, _, all) => all.length === 1 || !("body" in d && d.body)).map((d) => `${symbol.getName()}${d.questionToken ? "?" : ""}${signatureText(checker, d)};`).join("\n");
  if (declaration && ts.isGetAccessorDeclaration(declaration)) return `get ${symbol.getName()}${signatureText(checker, declaration)};`;
  if (declaration && (ts.isPropertySignature(declaration) || ts.isPropertyDeclaration(declaration)) && declaration.type) {
    const readonlyMark = ts.getCombinedModifierFlags(declaration) & ts.ModifierFlags.Readonly ? "readonly " : "";
    return `${readonlyMark}${symbol.getName()}${declaration.questionToken ? "?" : ""}: ${oneLine(declaration.type.getText())};`;
  }
  const optional = symbol.flags & ts.SymbolFlags.Optional ? "?" : "";
  const readonly = declaration && ts.getCombinedModifierFlags(declaration) & ts.ModifierFlags.Readonly ? "readonly " : "";
  const type = checker.getTypeOfSymbolAtLocation(symbol, declaration ?? at);
  if (symbol.flags & ts.SymbolFlags.Method)
    return type
      .getCallSignatures()
      .map((s) => `${symbol.getName()}${optional}${checker.signatureToString(s, at, TYPE_FLAGS & ~ts.TypeFormatFlags.WriteArrowStyleSignature)};`)
      .join("\n");
  if (symbol.flags & ts.SymbolFlags.GetAccessor) return `get ${symbol.getName()}(): ${checker.typeToString(type, at, TYPE_FLAGS)};`;
  return `${readonly}${symbol.getName()}${optional}: ${checker.typeToString(type, at, TYPE_FLAGS)};`;
}

function block(head: string, lines: string[]): string {
  return lines.length === 0 ? `${head} {}` : `${head} {\n${lines.flatMap((l) => l.split("\n")).map((l) => `  ${l}`).join("\n")}\n}`;
}

function oneLine(text: string): string {
  return text.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, "").replace(/\s+/g, " ").trim();
}

/** The report as Markdown: a count by kind, then one section per name. */
export function renderApiReport(entries: ApiEntry[]): string {
  const kinds = new Map<string, number>();
  for (const e of entries) kinds.set(e.kind, (kinds.get(e.kind) ?? 0) + 1);
  const counts = [...kinds].sort(([a], [b]) => (a < b ? -1 : 1)).map(([kind, n]) => `${n} ${kind}`).join(", ");
  return [
    "# API report: `crashlab/alpha`",
    "",
    "Every name the package's one entry point exports, with its kind and signature, read from",
    "`src/alpha/index.ts` with the TypeScript compiler. Do not edit: `pnpm api:report` writes it, and",
    "`test/api-report.test.ts` fails when it no longer matches the exports, so a change to the public",
    "surface shows in review.",
    "",
    `${entries.length} names: ${counts}.`,
    "",
    ...entries.flatMap((e) => [`## ${e.name} (${e.kind})`, "", "```ts", e.signature, "```", ""]),
  ].join("\n");
}

export function readApiReport(): string {
  return readFileSync(API_REPORT_FILE, "utf8");
}
