import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
    type HintsResponse,
    IndexingTracker,
    hintDocument,
    identifierNames,
    parseHintsResponse,
    pollUntilIndexed,
    statusText,
} from '../src/hints';

const SLUGIFY = {
    name: 'slugify',
    qualified_name: 'pkg.text.slugify',
    kind: 'function',
    path: 'pkg/text.py',
    direction: 'code->test',
};
const TEXT = '- `pkg/text.py`\n  - function `slugify`: `def slugify(title, sep="-")`\n';

function response(over: Partial<HintsResponse> = {}): HintsResponse {
    return { text: TEXT, identifiers: [SLUGIFY], indexing: false, selection: 'defuse', projection: 'declaration', ...over };
}

describe('parseHintsResponse', () => {
    test('accepts the contract shape', () => {
        const r = parseHintsResponse({ ...response(), extra: 1 });
        assert.equal(r.text, TEXT);
        assert.equal(r.indexing, false);
        assert.equal(r.identifiers.length, 1);
        assert.equal(r.selection, 'defuse');
        assert.equal(r.projection, 'declaration');
    });

    test('missing optional fields get neutral values', () => {
        assert.deepEqual(parseHintsResponse({ text: '' }), {
            text: '',
            identifiers: [],
            indexing: false,
            selection: '',
            projection: '',
        });
    });

    test('rejects what is not a hint block, saying what came', () => {
        assert.throws(() => parseHintsResponse(null), /expected an object.*got null/);
        assert.throws(() => parseHintsResponse('x'), /got string/);
        assert.throws(() => parseHintsResponse([]), /got an array/);
        assert.throws(() => parseHintsResponse({ text: 3 }), /no string `text` \(got number\)/);
    });
});

describe('hintDocument', () => {
    test('header comment, then the hint block verbatim', () => {
        assert.equal(
            hintDocument(response()),
            `<!-- hintlens: defuse + declaration; 1 identifier -->\n\n${TEXT}`,
        );
    });

    test('an empty selection says so', () => {
        const doc = hintDocument(response({ text: '', identifiers: [] }));
        assert.match(doc, /^<!-- hintlens: defuse \+ declaration; 0 identifiers -->/);
        assert.match(doc, /hint block is empty/);
    });

    test('flags an answer given while indexing, and ends with a newline', () => {
        const doc = hintDocument(response({ indexing: true, text: 'x', identifiers: [SLUGIFY, SLUGIFY] }));
        assert.match(doc, /2 identifiers; still indexing, may be incomplete/);
        assert.ok(doc.endsWith('x\n'));
    });
});

test('identifierNames: IDENT objects and plain names', () => {
    assert.deepEqual(identifierNames([SLUGIFY, { name: 'sep' }, 'shout', 7, null]), ['pkg.text.slugify', 'sep', 'shout']);
});

describe('statusText', () => {
    test('indexing shows a spinner and the percentage', () => {
        assert.deepEqual(statusText({ kind: 'indexing' }), {
            text: '$(sync~spin) hintlens: indexing…',
            tooltip: 'hintlens is indexing the repository',
        });
        const s = statusText({ kind: 'indexing', title: 'Indexing', message: '3/10 files', percentage: 30.4 });
        assert.equal(s.text, '$(sync~spin) hintlens: indexing… 30%');
        assert.equal(s.tooltip, 'hintlens is indexing (Indexing: 3/10 files)');
    });

    test('ready counts hints', () => {
        assert.equal(statusText({ kind: 'ready', identifiers: 1 }).text, '$(check) hintlens: 1 hint');
        assert.equal(statusText({ kind: 'ready', identifiers: 3 }).text, '$(check) hintlens: 3 hints');
        assert.equal(statusText({ kind: 'ready' }).text, '$(check) hintlens');
        assert.match(statusText({ kind: 'ready', selection: 'defuse', projection: 'declaration' }).tooltip, /defuse \+ declaration/);
    });

    test('errors carry their message in the tooltip', () => {
        assert.deepEqual(statusText({ kind: 'error', message: 'boom' }), { text: '$(error) hintlens', tooltip: 'boom' });
        assert.equal(statusText({ kind: 'stopped' }).text, '$(circle-slash) hintlens');
        assert.equal(statusText({ kind: 'starting' }).text, '$(sync~spin) hintlens: starting…');
    });
});

describe('IndexingTracker', () => {
    test('starting until the first answer, then follows the polled flag', () => {
        const t = new IndexingTracker();
        assert.deepEqual(t.state(), { kind: 'starting' });
        assert.equal(t.indexing, true);
        assert.deepEqual(t.polled(response({ indexing: true })), { kind: 'indexing' });
        assert.deepEqual(t.polled(response()), {
            kind: 'ready',
            identifiers: 1,
            selection: 'defuse',
            projection: 'declaration',
        });
        assert.equal(t.indexing, false);
    });

    test('work-done progress overrides a ready poll until it ends', () => {
        const t = new IndexingTracker();
        t.polled(response());
        assert.deepEqual(t.progress('idx', { kind: 'begin', title: 'Indexing', percentage: 0 }), {
            kind: 'indexing',
            title: 'Indexing',
            message: undefined,
            percentage: 0,
        });
        assert.deepEqual(t.progress('idx', { kind: 'report', message: 'pkg/text.py', percentage: 50 }), {
            kind: 'indexing',
            title: 'Indexing',
            message: 'pkg/text.py',
            percentage: 50,
        });
        assert.equal(t.indexing, true);
        assert.equal(t.progress('idx', { kind: 'end' }).kind, 'ready');
    });

    test('two progress tokens: indexing until both end', () => {
        const t = new IndexingTracker();
        t.polled(response());
        t.progress(1, { kind: 'begin', title: 'a' });
        t.progress('b', { kind: 'begin', title: 'b' });
        assert.equal(t.progress(1, { kind: 'end' }).kind, 'indexing');
        assert.equal(t.progress('b', { kind: 'end' }).kind, 'ready');
    });
});

describe('pollUntilIndexed', () => {
    const noSleep = () => Promise.resolve();

    test('polls until indexing is false, backing off', async () => {
        const answers = [response({ indexing: true }), response({ indexing: true }), response()];
        const seen: boolean[] = [];
        const waits: number[] = [];
        const r = await pollUntilIndexed({
            request: async () => answers.shift()!,
            onAnswer: (a) => seen.push(a.indexing),
            sleep: async (ms) => {
                waits.push(ms);
            },
            cancelled: () => false,
            intervalMs: 100,
            maxIntervalMs: 300,
        });
        assert.equal(r?.indexing, false);
        assert.deepEqual(seen, [true, true, false]);
        assert.deepEqual(waits, [100, 200]);
    });

    test('gives up after maxErrors failures in a row', async () => {
        let calls = 0;
        const errors: number[] = [];
        const r = await pollUntilIndexed({
            request: async () => {
                calls++;
                throw new Error('server busy');
            },
            onAnswer: () => assert.fail('no answer expected'),
            onError: (_e, n) => errors.push(n),
            sleep: noSleep,
            cancelled: () => false,
            maxErrors: 3,
        });
        assert.equal(r, undefined);
        assert.equal(calls, 3);
        assert.deepEqual(errors, [1, 2, 3]);
    });

    test('an error between answers does not stop polling', async () => {
        const script: Array<HintsResponse | Error> = [response({ indexing: true }), new Error('x'), response()];
        const r = await pollUntilIndexed({
            request: async () => {
                const next = script.shift()!;
                if (next instanceof Error) throw next;
                return next;
            },
            onAnswer: () => {},
            sleep: noSleep,
            cancelled: () => false,
        });
        assert.equal(r?.indexing, false);
    });

    test('stops when cancelled', async () => {
        let cancelled = false;
        let calls = 0;
        const r = await pollUntilIndexed({
            request: async () => {
                calls++;
                cancelled = true;
                return response({ indexing: true });
            },
            onAnswer: () => assert.fail('answers after cancellation are dropped'),
            sleep: noSleep,
            cancelled: () => cancelled,
        });
        assert.equal(r, undefined);
        assert.equal(calls, 1);
    });
});
