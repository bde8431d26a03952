// The `hintlens/hints` response, the hint-block document and the status bar text.
// No `vscode` import, so all of it is unit-tested under plain node.

export const HINTS_REQUEST = 'hintlens/hints';
export const SHOW_HINTS_COMMAND = 'hintlens.showHints';
export const RESTART_COMMAND = 'hintlens.restartServer';

export interface HintsParams {
    selection?: string;
    projection?: string;
}

export interface HintsResponse {
    /** The rendered hint block (markdown); empty when nothing is selected. */
    text: string;
    /** The selected identifiers, as the server sends them (IDENT objects or names). */
    identifiers: unknown[];
    /** True while the server is still building its index; `text` may then be incomplete. */
    indexing: boolean;
    selection: string;
    projection: string;
}

/** Checks the shape of a `hintlens/hints` (or `hintlens.showHints`) answer; throws with a readable message. */
export function parseHintsResponse(value: unknown): HintsResponse {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw new Error(`hintlens: expected an object from ${HINTS_REQUEST}, got ${describe(value)}`);
    }
    const v = value as Record<string, unknown>;
    if (typeof v.text !== 'string') {
        throw new Error(`hintlens: ${HINTS_REQUEST} answer has no string \`text\` (got ${describe(v.text)})`);
    }
    const identifiers = Array.isArray(v.identifiers) ? v.identifiers : [];
    return {
        text: v.text,
        identifiers,
        indexing: v.indexing === true,
        selection: typeof v.selection === 'string' ? v.selection : '',
        projection: typeof v.projection === 'string' ? v.projection : '',
    };
}

function describe(v: unknown): string {
    if (v === null) return 'null';
    if (Array.isArray(v)) return 'an array';
    return typeof v;
}

/** Display names of the identifiers: IDENT objects give `qualified_name` or `name`; strings are names. */
export function identifierNames(identifiers: readonly unknown[]): string[] {
    const out: string[] = [];
    for (const id of identifiers) {
        if (typeof id === 'string') {
            out.push(id);
        } else if (typeof id === 'object' && id !== null) {
            const o = id as Record<string, unknown>;
            const name = typeof o.qualified_name === 'string' ? o.qualified_name : o.name;
            if (typeof name === 'string') out.push(name);
        }
    }
    return out;
}

export function plural(n: number, one: string, many = `${one}s`): string {
    return `${n} ${n === 1 ? one : many}`;
}

/**
 * The untitled markdown document `hintlens.showHints` opens: a one-line HTML
 * comment saying what it is (invisible in the preview), then the hint block
 * verbatim so it can be copied into a task as is.
 */
export function hintDocument(r: HintsResponse): string {
    const what = [r.selection, r.projection].filter((s) => s !== '').join(' + ') || 'hint block';
    const header = `<!-- hintlens: ${what}; ${plural(r.identifiers.length, 'identifier')}${r.indexing ? '; still indexing, may be incomplete' : ''} -->`;
    const body =
        r.text.trim() === ''
            ? '_No identifier crosses the code–test boundary: the hint block is empty._\n'
            : r.text.endsWith('\n')
              ? r.text
              : `${r.text}\n`;
    return `${header}\n\n${body}`;
}

// ---------------------------------------------------------------------------
// Server state → status bar item

export type ServerState =
    | { kind: 'starting' }
    | { kind: 'indexing'; title?: string; message?: string; percentage?: number }
    | { kind: 'ready'; identifiers?: number; selection?: string; projection?: string }
    | { kind: 'stopped' }
    | { kind: 'error'; message: string };

export interface StatusText {
    text: string;
    tooltip: string;
}

export function statusText(s: ServerState): StatusText {
    switch (s.kind) {
        case 'starting':
            return { text: '$(sync~spin) hintlens: starting…', tooltip: 'Starting hintlens lsp' };
        case 'indexing': {
            const pct = s.percentage !== undefined ? ` ${Math.round(s.percentage)}%` : '';
            const detail = [s.title, s.message].filter((x) => x !== undefined && x !== '').join(': ');
            return {
                text: `$(sync~spin) hintlens: indexing…${pct}`,
                tooltip: detail !== '' ? `hintlens is indexing (${detail})` : 'hintlens is indexing the repository',
            };
        }
        case 'ready': {
            const n = s.identifiers;
            const what = [s.selection, s.projection].filter((x) => x !== undefined && x !== '').join(' + ');
            return {
                text: n === undefined ? '$(check) hintlens' : `$(check) hintlens: ${plural(n, 'hint')}`,
                tooltip: `hintlens is ready${what !== '' ? ` (${what})` : ''} — click to show the hint block`,
            };
        }
        case 'stopped':
            return { text: '$(circle-slash) hintlens', tooltip: 'hintlens lsp is not running — click to restart' };
        case 'error':
            return { text: '$(error) hintlens', tooltip: s.message };
    }
}

// ---------------------------------------------------------------------------
// Indexing state
//
// Two signals feed the status item: the server's work-done progress (seen
// through the language client's `handleWorkDoneProgress` middleware, which
// leaves VS Code's own progress UI in place) and the `indexing` field of
// `hintlens/hints`, polled after start until it turns false.  Progress alone
// misses a run that began before the middleware could see it or a server that
// sends none; polling alone lags.  The item says "indexing" while either does.

export type WorkDoneValue =
    | { kind: 'begin'; title?: string; message?: string; percentage?: number }
    | { kind: 'report'; message?: string; percentage?: number }
    | { kind: 'end'; message?: string };

export class IndexingTracker {
    private readonly active = new Map<string, { title?: string; message?: string; percentage?: number }>();
    private polledIndexing: boolean | undefined;
    private last: HintsResponse | undefined;

    /** Feed one `$/progress` value; returns the new state. */
    progress(token: string | number, value: WorkDoneValue): ServerState {
        const key = String(token);
        if (value.kind === 'begin') {
            this.active.set(key, { title: value.title, message: value.message, percentage: value.percentage });
        } else if (value.kind === 'report') {
            const cur = this.active.get(key) ?? {};
            this.active.set(key, {
                title: cur.title,
                message: value.message ?? cur.message,
                percentage: value.percentage ?? cur.percentage,
            });
        } else {
            this.active.delete(key);
        }
        return this.state();
    }

    /** Feed one `hintlens/hints` answer; returns the new state. */
    polled(r: HintsResponse): ServerState {
        this.polledIndexing = r.indexing;
        this.last = r;
        return this.state();
    }

    get indexing(): boolean {
        return this.active.size > 0 || this.polledIndexing !== false;
    }

    state(): ServerState {
        if (this.active.size > 0) {
            const [first] = this.active.values();
            return { kind: 'indexing', ...first };
        }
        if (this.polledIndexing === undefined) return { kind: 'starting' };
        if (this.polledIndexing) return { kind: 'indexing' };
        return {
            kind: 'ready',
            identifiers: this.last?.identifiers.length,
            selection: this.last?.selection,
            projection: this.last?.projection,
        };
    }
}

export interface PollOptions {
    request: () => Promise<HintsResponse>;
    onAnswer: (r: HintsResponse) => void;
    onError?: (e: unknown, attempt: number) => void;
    sleep: (ms: number) => Promise<void>;
    /** Stop early (client stopped or restarted). */
    cancelled: () => boolean;
    /** First wait between polls; doubles up to maxIntervalMs. */
    intervalMs?: number;
    maxIntervalMs?: number;
    /** Give up after this many failed requests in a row. */
    maxErrors?: number;
}

/**
 * Polls `hintlens/hints` until it answers `indexing: false`.  Resolves with the
 * final answer, or undefined when cancelled or after `maxErrors` failures.
 */
export async function pollUntilIndexed(o: PollOptions): Promise<HintsResponse | undefined> {
    let wait = o.intervalMs ?? 250;
    const maxWait = o.maxIntervalMs ?? 2000;
    const maxErrors = o.maxErrors ?? 5;
    let errors = 0;
    while (!o.cancelled()) {
        try {
            const r = await o.request();
            errors = 0;
            if (o.cancelled()) return undefined;
            o.onAnswer(r);
            if (!r.indexing) return r;
        } catch (e) {
            errors += 1;
            o.onError?.(e, errors);
            if (errors >= maxErrors) return undefined;
        }
        await o.sleep(wait);
        wait = Math.min(wait * 2, maxWait);
    }
    return undefined;
}
