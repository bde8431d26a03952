import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';

import {
    type Probe,
    type RunResult,
    candidates,
    check,
    describeFailure,
    expandPath,
    findServer,
    nodeProbe,
} from '../src/server';

interface FakeOptions {
    env?: Record<string, string | undefined>;
    files?: string[];
    /** path → result of `<path> --version` */
    runs?: Record<string, RunResult>;
    platform?: NodeJS.Platform;
}

function fake(o: FakeOptions): Probe & { ran: string[] } {
    const files = new Set(o.files ?? []);
    const ran: string[] = [];
    return {
        ran,
        env: o.env ?? {},
        platform: o.platform ?? 'linux',
        homedir: '/home/u',
        isFile: (p) => files.has(p),
        run: (command, args) => {
            ran.push(`${command} ${args.join(' ')}`);
            return o.runs?.[command] ?? { status: 127, stdout: '', stderr: '', error: 'spawn ENOENT' };
        },
    };
}

const OK = (v = 'hintlens 0.1.0'): RunResult => ({ status: 0, stdout: `${v}\n`, stderr: '' });

describe('candidates', () => {
    test('order is env, setting, bundled, PATH', () => {
        const probe = fake({
            env: { HINTLENS_SERVER: '/env/hintlens', PATH: '/usr/local/bin:/usr/bin' },
            files: ['/usr/bin/hintlens'],
        });
        const c = candidates({ setting: '/set/hintlens', extensionPath: '/ext' }, probe);
        assert.deepEqual(
            c.map((x) => [x.source, x.path]),
            [
                ['env', '/env/hintlens'],
                ['setting', '/set/hintlens'],
                ['bundled', '/ext/server/hintlens'],
                ['path', '/usr/bin/hintlens'],
            ],
        );
    });

    test('unset and blank env/setting are skipped', () => {
        const probe = fake({ env: { HINTLENS_SERVER: '  ', PATH: '' } });
        const c = candidates({ setting: '', extensionPath: '/ext' }, probe);
        assert.deepEqual(
            c.map((x) => x.source),
            ['bundled', 'path'],
        );
        assert.equal(c[1]!.path, 'hintlens', 'a PATH miss is still listed, as the bare name');
    });

    test('every PATH directory holding hintlens is a candidate, in PATH order', () => {
        const probe = fake({ env: { PATH: '/a:/b::/c' }, files: ['/c/hintlens', '/a/hintlens'] });
        assert.deepEqual(
            candidates({}, probe).map((x) => x.path),
            ['/a/hintlens', '/c/hintlens'],
        );
    });

    test('windows: .exe, PATHEXT and ; separators', () => {
        const probe = fake({
            platform: 'win32',
            env: { Path: 'C:\\bin;D:\\tools', PATHEXT: '.COM;.EXE' },
            files: ['D:\\tools\\hintlens.exe'],
        });
        const c = candidates({ extensionPath: 'C:\\ext' }, probe);
        assert.deepEqual(
            c.map((x) => x.path),
            ['C:\\ext\\server\\hintlens.exe', 'D:\\tools\\hintlens.exe'],
        );
    });

    test('setting: ~ expands to home, relative resolves against the workspace', () => {
        const probe = fake({});
        assert.equal(candidates({ setting: '~/bin/hintlens' }, probe)[0]!.path, '/home/u/bin/hintlens');
        assert.equal(
            candidates({ setting: 'target/debug/hintlens', workspaceRoot: '/ws' }, probe)[0]!.path,
            '/ws/target/debug/hintlens',
        );
        assert.equal(expandPath('~', '/home/u', 'linux'), '/home/u');
    });
});

describe('findServer', () => {
    test('env wins when it works, and nothing after it runs', () => {
        const probe = fake({
            env: { HINTLENS_SERVER: '/env/hintlens', PATH: '/usr/bin' },
            files: ['/env/hintlens', '/set/hintlens', '/usr/bin/hintlens'],
            runs: { '/env/hintlens': OK('hintlens 9.9.9'), '/set/hintlens': OK(), '/usr/bin/hintlens': OK() },
        });
        const r = findServer({ setting: '/set/hintlens', extensionPath: '/ext' }, probe);
        assert.deepEqual(r.found, { path: '/env/hintlens', source: 'env', version: 'hintlens 9.9.9' });
        assert.deepEqual(probe.ran, ['/env/hintlens --version']);
        assert.equal(r.tried.length, 1);
    });

    test('falls through a broken env and setting to the bundled binary', () => {
        const probe = fake({
            env: { HINTLENS_SERVER: '/env/missing', PATH: '/usr/bin' },
            files: ['/set/hintlens', '/ext/server/hintlens', '/usr/bin/hintlens'],
            runs: {
                '/set/hintlens': { status: 2, stdout: '', stderr: 'error: unexpected argument\n' },
                '/ext/server/hintlens': OK('hintlens 0.1.0'),
                '/usr/bin/hintlens': OK(),
            },
        });
        const r = findServer({ setting: '/set/hintlens', extensionPath: '/ext' }, probe);
        assert.equal(r.found?.source, 'bundled');
        assert.equal(r.found?.path, '/ext/server/hintlens');
        assert.deepEqual(
            r.tried.map((a) => [a.candidate.source, a.ok, a.reason]),
            [
                ['env', false, 'no such file'],
                ['setting', false, '`--version` exited with code 2: error: unexpected argument'],
                ['bundled', true, undefined],
            ],
        );
        assert.deepEqual(probe.ran, ['/set/hintlens --version', '/ext/server/hintlens --version']);
    });

    test('PATH is the last resort', () => {
        const probe = fake({
            env: { PATH: '/opt/bin:/usr/bin' },
            files: ['/usr/bin/hintlens'],
            runs: { '/usr/bin/hintlens': OK() },
        });
        const r = findServer({ extensionPath: '/ext' }, probe);
        assert.equal(r.found?.source, 'path');
        assert.equal(r.found?.path, '/usr/bin/hintlens');
        assert.deepEqual(
            r.tried.map((a) => a.candidate.source),
            ['bundled', 'path'],
        );
    });

    test('nothing works: every attempt is listed with its reason', () => {
        const probe = fake({
            env: { HINTLENS_SERVER: '/env/hintlens', PATH: '/usr/bin' },
            files: ['/env/hintlens'],
            runs: { '/env/hintlens': { status: null, stdout: '', stderr: '', error: 'timed out after 5000 ms' } },
        });
        const r = findServer({ setting: '/nope', extensionPath: '/ext' }, probe);
        assert.equal(r.found, undefined);
        assert.deepEqual(
            r.tried.map((a) => a.reason),
            ['`--version` failed: timed out after 5000 ms', 'no such file', 'no such file', 'not found on PATH'],
        );
        const text = describeFailure(r);
        for (const s of ['HINTLENS_SERVER', 'hintlens.server.path', '/env/hintlens', '/nope', '/ext/server/hintlens', 'PATH']) {
            assert.ok(text.includes(s), `failure text mentions ${s}:\n${text}`);
        }
        assert.match(text, /cargo build -p hintlens-cli/);
    });

    test('a binary killed by a signal is rejected', () => {
        const probe = fake({ files: ['/x'], runs: { '/x': { status: null, stdout: '', stderr: '' } } });
        const a = check({ source: 'setting', origin: 'setting', path: '/x' }, probe);
        assert.equal(a.ok, false);
        assert.equal(a.reason, '`--version` exited with a signal');
    });
});

describe('nodeProbe (real processes)', { skip: process.platform === 'win32' }, () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hintlens-lookup-'));
    after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const script = (name: string, body: string) => {
        const p = path.join(dir, name);
        fs.writeFileSync(p, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
        return p;
    };
    const good = script('good', 'echo "hintlens 0.1.0"');
    const bad = script('bad', 'echo "no such flag" >&2; exit 3');
    const slow = script('slow', 'sleep 5');

    test('runs --version and reads its first line', () => {
        const probe = nodeProbe({ PATH: '' });
        assert.deepEqual(check({ source: 'env', origin: 'env', path: good }, probe), {
            candidate: { source: 'env', origin: 'env', path: good },
            ok: true,
            version: 'hintlens 0.1.0',
        });
        assert.equal(check({ source: 'env', origin: 'env', path: bad }, probe).reason, '`--version` exited with code 3: no such flag');
    });

    test('a hanging binary times out', () => {
        const a = check({ source: 'env', origin: 'env', path: slow }, nodeProbe({ PATH: '' }), 200);
        assert.equal(a.ok, false);
        assert.match(a.reason ?? '', /timed out after 200 ms/);
    });

    test('finds hintlens on a real PATH', () => {
        const bin = path.join(dir, 'bin');
        fs.mkdirSync(bin);
        fs.copyFileSync(good, path.join(bin, 'hintlens'));
        fs.chmodSync(path.join(bin, 'hintlens'), 0o755);
        const r = findServer({ extensionPath: path.join(dir, 'ext') }, nodeProbe({ PATH: `${path.join(dir, 'nothing')}:${bin}` }));
        assert.equal(r.found?.path, path.join(bin, 'hintlens'));
        assert.equal(r.found?.source, 'path');
    });
});
