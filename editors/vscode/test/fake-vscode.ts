// A small in-process stand-in for the `vscode` module, enough for
// vscode-languageclient and the extension to run under plain Node.  VS Code
// itself cannot be downloaded here; this lets test/extension.test.ts load the
// real bundle (dist/extension.js), activate it, and drive the real language
// client against the real server through the providers and commands it
// registers.  What is not modelled falls back to inert stubs (listed in
// `fake.missing`), so a test can see what it did not cover.

import * as fs from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

type Listener<T> = (e: T) => unknown;

export class Disposable {
    static from(...items: Array<{ dispose(): unknown }>): Disposable {
        return new Disposable(() => items.forEach((i) => i.dispose()));
    }
    constructor(private readonly fn: () => unknown = () => {}) {}
    dispose(): void {
        this.fn();
    }
}

export class EventEmitter<T> {
    private listeners = new Set<Listener<T>>();
    readonly event = (listener: Listener<T>, thisArg?: unknown, disposables?: Disposable[]): Disposable => {
        const bound: Listener<T> = (e) => listener.call(thisArg, e);
        this.listeners.add(bound);
        const d = new Disposable(() => this.listeners.delete(bound));
        disposables?.push(d);
        return d;
    };
    fire(e: T): void {
        for (const l of [...this.listeners]) l(e);
    }
    dispose(): void {
        this.listeners.clear();
    }
}

export class Uri {
    private constructor(
        readonly scheme: string,
        readonly authority: string,
        readonly path: string,
        readonly query: string,
        readonly fragment: string,
    ) {}
    static file(p: string): Uri {
        return Uri.parse(pathToFileURL(p).href);
    }
    static parse(value: string): Uri {
        const m = /^([a-zA-Z][\w+.-]*):(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/.exec(value);
        if (!m) throw new Error(`fake vscode: cannot parse URI ${value}`);
        return new Uri(m[1]!, m[2] ?? '', decodeURIComponent(m[3] ?? ''), m[4] ?? '', m[5] ?? '');
    }
    static joinPath(base: Uri, ...segments: string[]): Uri {
        return base.with({ path: path.posix.join(base.path, ...segments) });
    }
    get fsPath(): string {
        return this.scheme === 'file' ? fileURLToPath(this.toString()) : this.path;
    }
    with(change: Partial<{ scheme: string; authority: string; path: string; query: string; fragment: string }>): Uri {
        return new Uri(
            change.scheme ?? this.scheme,
            change.authority ?? this.authority,
            change.path ?? this.path,
            change.query ?? this.query,
            change.fragment ?? this.fragment,
        );
    }
    toString(): string {
        const p = this.path.split('/').map(encodeURIComponent).join('/');
        return `${this.scheme}:${this.scheme === 'file' || this.authority ? `//${this.authority}` : ''}${p}${this.query ? `?${this.query}` : ''}${this.fragment ? `#${this.fragment}` : ''}`;
    }
    toJSON(): unknown {
        return { $mid: 1, scheme: this.scheme, path: this.path, external: this.toString() };
    }
}

export class Position {
    constructor(
        readonly line: number,
        readonly character: number,
    ) {}
    isBefore(o: Position): boolean {
        return this.line < o.line || (this.line === o.line && this.character < o.character);
    }
    isEqual(o: Position): boolean {
        return this.line === o.line && this.character === o.character;
    }
    translate(dl = 0, dc = 0): Position {
        return new Position(this.line + dl, this.character + dc);
    }
}

export class Range {
    readonly start: Position;
    readonly end: Position;
    constructor(a: Position | number, b: Position | number, c?: number, d?: number) {
        if (typeof a === 'number') {
            this.start = new Position(a, b as number);
            this.end = new Position(c!, d!);
        } else {
            this.start = a;
            this.end = b as Position;
        }
    }
    get isEmpty(): boolean {
        return this.start.isEqual(this.end);
    }
    contains(p: Position): boolean {
        return !p.isBefore(this.start) && !this.end.isBefore(p);
    }
}

export class Location {
    constructor(
        readonly uri: Uri,
        readonly range: Range,
    ) {}
}

export class MarkdownString {
    isTrusted?: boolean;
    supportHtml?: boolean;
    constructor(
        public value = '',
        public supportThemeIcons = false,
    ) {}
    appendMarkdown(v: string): this {
        this.value += v;
        return this;
    }
    appendText(v: string): this {
        this.value += v;
        return this;
    }
    appendCodeblock(v: string, lang = ''): this {
        this.value += `\n\`\`\`${lang}\n${v}\n\`\`\`\n`;
        return this;
    }
}

export class Hover {
    readonly contents: unknown[];
    constructor(
        contents: unknown,
        readonly range?: Range,
    ) {
        this.contents = Array.isArray(contents) ? contents : [contents];
    }
}

export class CodeLens {
    constructor(
        public range: Range,
        public command?: { title: string; command: string; arguments?: unknown[] },
    ) {}
    get isResolved(): boolean {
        return this.command !== undefined;
    }
}

export class Diagnostic {
    source?: string;
    code?: unknown;
    tags?: unknown[];
    relatedInformation?: unknown[];
    constructor(
        public range: Range,
        public message: string,
        public severity: number = 0,
    ) {}
}

export class CancellationError extends Error {}

export class CancellationTokenSource {
    private emitter = new EventEmitter<void>();
    readonly token = {
        isCancellationRequested: false,
        onCancellationRequested: this.emitter.event,
    };
    cancel(): void {
        if (!this.token.isCancellationRequested) {
            this.token.isCancellationRequested = true;
            this.emitter.fire();
        }
    }
    dispose(): void {
        this.emitter.dispose();
    }
}

export class ThemeColor {
    constructor(readonly id: string) {}
}

export const DiagnosticSeverity = { Error: 0, Warning: 1, Information: 2, Hint: 3 } as const;
export const StatusBarAlignment = { Left: 1, Right: 2 } as const;
export const ViewColumn = { Active: -1, Beside: -2, One: 1, Two: 2, Three: 3 } as const;
export const ProgressLocation = { SourceControl: 1, Window: 10, Notification: 15 } as const;

export class TextDocument {
    version = 1;
    isClosed = false;
    isDirty = false;
    isUntitled: boolean;
    readonly eol = 1;
    constructor(
        readonly uri: Uri,
        readonly languageId: string,
        private text: string,
    ) {
        this.isUntitled = uri.scheme === 'untitled';
    }
    get fileName(): string {
        return this.uri.fsPath;
    }
    get lineCount(): number {
        return this.text.split('\n').length;
    }
    getText(range?: Range): string {
        if (!range) return this.text;
        return this.text.slice(this.offsetAt(range.start), this.offsetAt(range.end));
    }
    offsetAt(p: Position): number {
        const lines = this.text.split('\n');
        let off = 0;
        for (let i = 0; i < p.line && i < lines.length; i++) off += lines[i]!.length + 1;
        return off + p.character;
    }
    positionAt(offset: number): Position {
        const before = this.text.slice(0, offset).split('\n');
        return new Position(before.length - 1, before[before.length - 1]!.length);
    }
    lineAt(line: number | Position): { text: string; range: Range } {
        const n = typeof line === 'number' ? line : line.line;
        const text = this.text.split('\n')[n] ?? '';
        return { text, range: new Range(n, 0, n, text.length) };
    }
    save(): Promise<boolean> {
        return Promise.resolve(true);
    }
}

interface DocumentFilter {
    scheme?: string;
    language?: string;
    pattern?: string;
}

function matches(selector: unknown, doc: TextDocument): number {
    const filters = (Array.isArray(selector) ? selector : [selector]) as Array<DocumentFilter | string>;
    for (const f of filters) {
        if (typeof f === 'string') {
            if (f === doc.languageId || f === '*') return 10;
        } else if ((f.language === undefined || f.language === doc.languageId) && (f.scheme === undefined || f.scheme === doc.uri.scheme)) {
            return 10;
        }
    }
    return 0;
}

export interface StatusBarItem {
    id: string;
    text: string;
    tooltip?: unknown;
    command?: unknown;
    name?: string;
    backgroundColor?: unknown;
    visible: boolean;
    show(): void;
    hide(): void;
    dispose(): void;
}

type Scopes = { globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown };

/** Builds a fresh fake `vscode` module; `install()` makes `require('vscode')` return it. */
export function createFakeVscode(opts: { workspaceRoot: string; defaults: Record<string, unknown> }) {
    const missing = new Set<string>();
    const log: string[] = [];
    const commands = new Map<string, (...args: unknown[]) => unknown>();
    const providers: Record<string, Array<{ selector: unknown; provider: any }>> = {};
    const diagnostics = new Map<string, Map<string, Diagnostic[]>>();
    const opened: Array<{ language?: string; content?: string }> = [];
    const shown: Array<{ document: TextDocument; options: unknown }> = [];
    const messages: Array<{ level: string; message: string }> = [];
    const statusItems: StatusBarItem[] = [];
    const textDocuments: TextDocument[] = [];
    /** User-set values by full key (`hintlens.statement`), at workspace scope. */
    const userSettings = new Map<string, unknown>();

    const onDidChangeConfiguration = new EventEmitter<{ affectsConfiguration(section: string): boolean }>();
    const onDidOpenTextDocument = new EventEmitter<TextDocument>();
    const events = new Map<string, EventEmitter<unknown>>();
    const event = (name: string) => {
        if (!events.has(name)) events.set(name, new EventEmitter<unknown>());
        return events.get(name)!.event;
    };

    const stub = (where: string): any =>
        new Proxy(function () {}, {
            get(_t, k) {
                if (k === 'then') return undefined;
                if (typeof k === 'symbol') return undefined;
                missing.add(`${where}.${String(k)}`);
                return stub(`${where}.${String(k)}`);
            },
            apply() {
                return new Disposable();
            },
            construct() {
                return {};
            },
        });
    const withFallback = <T extends object>(where: string, obj: T): T =>
        new Proxy(obj, {
            get(t, k, r) {
                if (k in t || typeof k === 'symbol' || k === 'then') return Reflect.get(t, k, r);
                missing.add(`${where}.${String(k)}`);
                // register*/on*/create* all hand back something disposable.
                return (..._args: unknown[]) => new Disposable();
            },
        });

    function configuration(section?: string) {
        const full = (key: string) => (section ? `${section}.${key}` : key);
        const defaultOf = (k: string) => {
            if (k in opts.defaults) return opts.defaults[k];
            // A whole section: its defaults and user values as a nested object.
            const prefix = `${k}.`;
            const keys = [...Object.keys(opts.defaults), ...userSettings.keys()].filter((x) => x.startsWith(prefix));
            if (keys.length === 0) return undefined;
            const obj: Record<string, unknown> = {};
            for (const key of keys) {
                const parts = key.slice(prefix.length).split('.');
                let cur = obj;
                for (const p of parts.slice(0, -1)) cur = (cur[p] ??= {}) as Record<string, unknown>;
                cur[parts[parts.length - 1]!] = userSettings.has(key) ? userSettings.get(key) : opts.defaults[key];
            }
            return obj;
        };
        return {
            get(key: string, dflt?: unknown) {
                const k = full(key);
                if (userSettings.has(k)) return userSettings.get(k);
                const v = defaultOf(k);
                return v === undefined ? dflt : v;
            },
            has(key: string) {
                return userSettings.has(full(key)) || defaultOf(full(key)) !== undefined;
            },
            inspect(key: string): (Scopes & { key: string; defaultValue?: unknown }) | undefined {
                const k = full(key);
                return { key: k, defaultValue: opts.defaults[k], workspaceValue: userSettings.get(k) };
            },
            update(key: string, value: unknown) {
                return setSetting(full(key), value);
            },
        };
    }

    async function setSetting(key: string, value: unknown): Promise<void> {
        if (value === undefined) userSettings.delete(key);
        else userSettings.set(key, value);
        onDidChangeConfiguration.fire({
            affectsConfiguration: (s: string) => key === s || key.startsWith(`${s}.`) || s.startsWith(`${key}.`),
        });
    }

    const register =
        (kind: string) =>
        (selector: unknown, provider: unknown, ..._rest: unknown[]): Disposable => {
            const entry = { selector, provider };
            (providers[kind] ??= []).push(entry);
            return new Disposable(() => {
                providers[kind] = (providers[kind] ?? []).filter((e) => e !== entry);
            });
        };

    const folder = { uri: Uri.file(opts.workspaceRoot), name: path.basename(opts.workspaceRoot), index: 0 };

    const vscode = {
        version: '1.85.0',
        Disposable,
        EventEmitter,
        Uri,
        Position,
        Range,
        Location,
        MarkdownString,
        Hover,
        CodeLens,
        Diagnostic,
        DiagnosticSeverity,
        CancellationError,
        CancellationTokenSource,
        ThemeColor,
        StatusBarAlignment,
        ViewColumn,
        ProgressLocation,
        env: withFallback('env', { language: 'en', appName: 'fake-vscode', machineId: 'test', sessionId: 'test', uriScheme: 'vscode' }),
        commands: withFallback('commands', {
            registerCommand(id: string, fn: (...args: unknown[]) => unknown) {
                if (commands.has(id)) throw new Error(`command '${id}' already exists`);
                commands.set(id, fn);
                return new Disposable(() => commands.delete(id));
            },
            async executeCommand(id: string, ...args: unknown[]) {
                const fn = commands.get(id);
                if (!fn) {
                    log.push(`executeCommand ${id} (not registered)`);
                    return undefined;
                }
                return fn(...args);
            },
            getCommands: async () => [...commands.keys()],
        }),
        window: withFallback('window', {
            activeTextEditor: undefined,
            visibleTextEditors: [],
            tabGroups: { all: [], onDidChangeTabs: event('tabs') },
            onDidChangeActiveTextEditor: event('activeEditor'),
            onDidChangeVisibleTextEditors: event('visibleEditors'),
            createOutputChannel(name: string) {
                return {
                    name,
                    append: (s: string) => log.push(`[${name}] ${s}`),
                    appendLine: (s: string) => log.push(`[${name}] ${s}`),
                    replace: () => {},
                    clear: () => {},
                    show: () => {},
                    hide: () => {},
                    dispose: () => {},
                };
            },
            createStatusBarItem(id: string) {
                const item: StatusBarItem = {
                    id,
                    text: '',
                    visible: false,
                    show() {
                        item.visible = true;
                    },
                    hide() {
                        item.visible = false;
                    },
                    dispose() {},
                };
                statusItems.push(item);
                return item;
            },
            async showErrorMessage(message: string) {
                messages.push({ level: 'error', message });
                return undefined;
            },
            async showWarningMessage(message: string) {
                messages.push({ level: 'warning', message });
                return undefined;
            },
            async showInformationMessage(message: string) {
                messages.push({ level: 'info', message });
                return undefined;
            },
            async withProgress(_o: unknown, task: (p: unknown, t: unknown) => Promise<unknown>) {
                return task({ report: () => {} }, new CancellationTokenSource().token);
            },
            async showTextDocument(document: TextDocument, options: unknown) {
                shown.push({ document, options });
                return { document };
            },
        }),
        workspace: withFallback('workspace', {
            workspaceFolders: [folder],
            name: folder.name,
            textDocuments,
            notebookDocuments: [],
            getConfiguration: configuration,
            getWorkspaceFolder: (uri: Uri) => (uri.fsPath.startsWith(opts.workspaceRoot) ? folder : undefined),
            onDidChangeConfiguration: onDidChangeConfiguration.event,
            onDidOpenTextDocument: onDidOpenTextDocument.event,
            onDidCloseTextDocument: event('close'),
            onDidChangeTextDocument: event('change'),
            onDidSaveTextDocument: event('save'),
            onWillSaveTextDocument: event('willSave'),
            onDidChangeWorkspaceFolders: event('folders'),
            onDidOpenNotebookDocument: event('openNotebook'),
            onDidCloseNotebookDocument: event('closeNotebook'),
            onDidChangeNotebookDocument: event('changeNotebook'),
            onDidSaveNotebookDocument: event('saveNotebook'),
            createFileSystemWatcher: () => ({
                onDidCreate: event('fsCreate'),
                onDidChange: event('fsChange'),
                onDidDelete: event('fsDelete'),
                dispose: () => {},
            }),
            async openTextDocument(arg: { language?: string; content?: string }) {
                opened.push(arg);
                return new TextDocument(Uri.parse(`untitled:Untitled-${opened.length}`), arg.language ?? 'plaintext', arg.content ?? '');
            },
        }),
        languages: withFallback('languages', {
            match: (selector: unknown, doc: TextDocument) => matches(selector, doc),
            createDiagnosticCollection(name = 'default') {
                const m = new Map<string, Diagnostic[]>();
                diagnostics.set(name, m);
                return {
                    name,
                    set: (uri: Uri | Array<[Uri, Diagnostic[]]>, diags?: Diagnostic[]) => {
                        if (Array.isArray(uri)) for (const [u, d] of uri) m.set(u.toString(), d);
                        else m.set(uri.toString(), diags ?? []);
                    },
                    delete: (uri: Uri) => m.delete(uri.toString()),
                    clear: () => m.clear(),
                    get: (uri: Uri) => m.get(uri.toString()),
                    has: (uri: Uri) => m.has(uri.toString()),
                    forEach: (cb: (u: Uri, d: Diagnostic[]) => void) => m.forEach((d, u) => cb(Uri.parse(u), d)),
                    dispose: () => m.clear(),
                };
            },
            onDidChangeDiagnostics: event('diagnostics'),
            registerHoverProvider: register('hover'),
            registerCodeLensProvider: register('codeLens'),
        }),
    };

    // Anything else (a class or enum this fake does not model) is an inert stub.
    const module = new Proxy(vscode as Record<string, unknown>, {
        get(t, k) {
            if (typeof k === 'symbol' || k in t) return t[k as string];
            if (k === 'then' || k === '__esModule' || k === 'default') return undefined;
            missing.add(String(k));
            return stub(String(k));
        },
    });

    function install(): () => void {
        const M = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
        const original = M._load;
        M._load = function (request: string, ...rest: unknown[]) {
            if (request === 'vscode') return module;
            return original.call(this, request, ...rest);
        };
        return () => {
            M._load = original;
        };
    }

    function openDocument(file: string, languageId: string): TextDocument {
        const doc = new TextDocument(Uri.file(file), languageId, fs.readFileSync(file, 'utf8'));
        textDocuments.push(doc);
        onDidOpenTextDocument.fire(doc);
        return doc;
    }

    /** The provider a document would get, as VS Code would pick it. */
    function provider(kind: string, doc: TextDocument): any {
        return (providers[kind] ?? []).find((p) => matches(p.selector, doc) > 0)?.provider;
    }

    return {
        module,
        install,
        missing,
        log,
        commands,
        providers,
        provider,
        diagnostics,
        opened,
        shown,
        messages,
        statusItems,
        openDocument,
        setSetting,
        tokenSource: () => new CancellationTokenSource(),
    };
}

export type FakeVscode = ReturnType<typeof createFakeVscode>;
