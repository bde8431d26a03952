// The `hintlens.*` settings and what the server receives from them.
// No `vscode` import: the extension passes a getter / inspector in.
//
// The server layers settings: its defaults, then `.hintlens.toml` at the work
// tree root, then what the editor sends (initializationOptions, then
// workspace/didChangeConfiguration), where an absent or null key leaves the
// layer below in place.  VS Code's `getConfiguration()` merges in the defaults
// of package.json, so sending it as is would override `.hintlens.toml` with
// `HEAD`/`defuse`/`declaration` every time.  So the extension sends only the
// values the user actually set (`inspect()`), and never the client-only keys
// (`server.path`, `trace.server`).

/** VS Code's ids of the languages the server reads; package.json's `onLanguage` activation
 *  events list the same (a unit test checks). */
export const LANGUAGES = [
    'python',
    'java',
    'go',
    'typescript',
    'typescriptreact',
    'javascript',
    'javascriptreact',
    'rust',
    'c',
    'cpp',
    'php',
    'ruby',
];

/** Selection policies (SPEC §3); the server rejects names it does not implement yet. */
export const SELECTIONS = ['defuse', 'doc2feat', 'fea', 'pro', 'all-new', 'empty', 'strings'] as const;
/** Projections (SPEC §4). */
export const PROJECTIONS = [
    'name',
    'name-kind',
    'declaration',
    'declaration-doc',
    'pro',
    'fea-brief',
    'fea-detailed',
    'nocode',
    'pro-interface',
] as const;

/** The keys the server understands; everything else under `hintlens.` is the client's. */
export const SERVER_KEYS = ['base', 'statement', 'selection', 'projection'] as const;
export type ServerKey = (typeof SERVER_KEYS)[number];

/**
 * `initializationOptions` of `hintlens lsp`, and the body of `settings.hintlens`
 * in didChangeConfiguration: only the keys the user set.  The server's defaults
 * are `base: "HEAD"`, no statement, `selection: "defuse"`, `projection: "declaration"`.
 */
export interface ServerSettings {
    base?: string;
    /** `""` switches off a statement configured in `.hintlens.toml`. */
    statement?: string;
    selection?: string;
    projection?: string;
}

/** What `WorkspaceConfiguration.inspect(key)` returns (the parts used here). */
export interface Inspected {
    globalValue?: unknown;
    workspaceValue?: unknown;
    workspaceFolderValue?: unknown;
}

/** `vscode.workspace.getConfiguration('hintlens').inspect`. */
export type Inspector = (key: string) => Inspected | undefined;

/** Reads one `hintlens.<key>` setting, defaults included (`getConfiguration('hintlens').get`). */
export type SettingGetter = (key: string) => unknown;

/** The value the user set for a key, most specific scope first; undefined when only the default applies. */
export function userValue(inspect: Inspector, key: string): unknown {
    const i = inspect(key);
    if (i === undefined) return undefined;
    return i.workspaceFolderValue ?? i.workspaceValue ?? i.globalValue;
}

export function serverSettings(inspect: Inspector): ServerSettings {
    const out: ServerSettings = {};
    for (const key of SERVER_KEYS) {
        const v = userValue(inspect, key);
        if (typeof v !== 'string') continue; // unset, or null: the server keeps the layer below
        const value = v.trim();
        if (value === '' && key !== 'statement') continue; // empty base/selection/projection mean "unset"
        out[key] = value;
    }
    return out;
}

/** Answer to a `workspace/configuration` item for `hintlens` or `hintlens.<key>`; undefined for other sections. */
export function configurationItem(section: string | undefined, inspect: Inspector): unknown {
    const settings = serverSettings(inspect);
    if (section === 'hintlens') return settings;
    if (section?.startsWith('hintlens.')) {
        const key = section.slice('hintlens.'.length);
        return (SERVER_KEYS as readonly string[]).includes(key) ? (settings[key as ServerKey] ?? null) : undefined;
    }
    return undefined;
}

function nonEmptyString(v: unknown): string | undefined {
    return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

/** The `hintlens.server.path` setting, or undefined when unset. */
export function serverPathSetting(get: SettingGetter): string | undefined {
    return nonEmptyString(get('server.path'));
}
