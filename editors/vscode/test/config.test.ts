import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import * as fs from 'node:fs';
import * as path from 'node:path';

import { type Inspected, LANGUAGES, configurationItem, serverPathSetting, serverSettings, userValue } from '../src/config';

test('the extension activates on every language the client selects', () => {
    // out/test/config.test.js → editors/vscode/package.json
    const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', 'package.json'), 'utf8'));
    const activation = (manifest.activationEvents as string[])
        .filter((e) => e.startsWith('onLanguage:'))
        .map((e) => e.slice('onLanguage:'.length));
    assert.deepEqual(activation.sort(), [...LANGUAGES].sort());
});

/** An inspector over per-scope values, as `WorkspaceConfiguration.inspect` reports them. */
function inspector(scopes: Record<string, Inspected>) {
    return (key: string): Inspected | undefined => scopes[key] ?? {};
}

describe('serverSettings: only what the user set', () => {
    test('nothing set: nothing sent, so .hintlens.toml and the server defaults apply', () => {
        assert.deepEqual(serverSettings(inspector({})), {});
        assert.deepEqual(serverSettings(() => undefined), {});
    });

    test('the most specific scope wins', () => {
        const inspect = inspector({
            base: { globalValue: 'main', workspaceValue: 'v1.0' },
            selection: { globalValue: 'fea', workspaceValue: 'defuse', workspaceFolderValue: 'all-new' },
            projection: { globalValue: 'name' },
        });
        assert.deepEqual(serverSettings(inspect), { base: 'v1.0', selection: 'all-new', projection: 'name' });
        assert.equal(userValue(inspect, 'statement'), undefined);
    });

    test('values are trimmed; blank base/selection/projection are unset; null is unset', () => {
        const inspect = inspector({
            base: { globalValue: '  ' },
            selection: { workspaceValue: ' defuse ' },
            projection: { workspaceValue: null },
            statement: { workspaceValue: ' task.md ' },
        });
        assert.deepEqual(serverSettings(inspect), { selection: 'defuse', statement: 'task.md' });
    });

    test('an empty statement is sent: it switches off a statement from .hintlens.toml', () => {
        assert.deepEqual(serverSettings(inspector({ statement: { workspaceValue: '' } })), { statement: '' });
        assert.deepEqual(serverSettings(inspector({ statement: { workspaceValue: null } })), {});
    });

    test('client-only keys never reach the server', () => {
        const inspect = inspector({
            'server.path': { globalValue: '/x/hintlens' },
            'trace.server': { globalValue: 'verbose' },
            base: { globalValue: 'HEAD~1' },
        });
        assert.deepEqual(serverSettings(inspect), { base: 'HEAD~1' });
    });
});

test('configurationItem answers workspace/configuration for hintlens sections only', () => {
    const inspect = inspector({ base: { workspaceValue: 'main' } });
    assert.deepEqual(configurationItem('hintlens', inspect), { base: 'main' });
    assert.equal(configurationItem('hintlens.base', inspect), 'main');
    assert.equal(configurationItem('hintlens.selection', inspect), null);
    assert.equal(configurationItem('hintlens.trace', inspect), undefined);
    assert.equal(configurationItem('python', inspect), undefined);
    assert.equal(configurationItem(undefined, inspect), undefined);
});

test('serverPathSetting: trimmed, blank is unset', () => {
    assert.equal(serverPathSetting((k) => (k === 'server.path' ? ' /x/hintlens ' : undefined)), '/x/hintlens');
    assert.equal(serverPathSetting(() => ''), undefined);
    assert.equal(serverPathSetting(() => null), undefined);
});
