//! What one TypeScript or JavaScript file defines and uses, as snapshots of the index's dump.

use hintlens_syntax::{DefKind, Frontend};
use hintlens_tree::check_extraction as check;
use hintlens_ts::Script;

check!(
    typescript_declarations,
    Script::typescript(),
    r#"import { Store } from './store';
import type * as api from '../api';
export { helper } from './helpers';
export * from './types';

/** Options of a client. */
export interface ClientOptions {
  /** Milliseconds before giving up. */
  timeoutMs?: number;
  retry(attempt: number): boolean;
}

export type Mode = 'fast' | 'safe';

export type Limits = { burst: number; rate: number };

export enum Color { Red, Green = 'green' }

export namespace Util {
  export function clamp(v: number): number { return v; }
}

export const DEFAULT_TIMEOUT = 1000;
let counter = 0;

export const fetchAll = async (ids: string[]): Promise<api.Item[]> => ids.map(load);

export function load(id: string): api.Item {
  const local = id + counter;
  return { id: local } as api.Item;
}

export abstract class Client<T> extends Base implements Closeable {
  static instances = 0;
  #secret = 1;
  private readonly store: Store;

  constructor(private opts: ClientOptions, store: Store) {
    super();
    this.store = store;
    this.lastError = null;
  }

  get name(): string { return 'client'; }

  async send(payload: T): Promise<void> {
    await this.store.put(payload, { timeoutMs: this.opts.timeoutMs });
  }

  abstract close(): void;
}
"#
);

check!(
    tsx_component_and_props,
    Script::tsx(),
    r#"import React from 'react';
import { Button } from './Button';

interface BannerProps {
  title: string;
  onDismiss?: () => void;
}

export function Banner({ title, onDismiss }: BannerProps) {
  const [open, setOpen] = React.useState(true);
  return open ? <div className="banner"><Button label={title} onClick={() => setOpen(false)} /><Icons.Close /></div> : null;
}
"#
);

check!(
    commonjs_api_like_nodebb,
    Script::javascript(),
    r#"'use strict';

const db = require('../database');
const { escape, slugify: slug } = require('../utils');

const User = module.exports;

User.exists = async function (uid) {
  return await db.exists(`user:${uid}`);
};

module.exports.helper = function (x) { return x; };
exports.VERSION = '1.0';

module.exports = function (Posts) {
  Posts.getPostSummaryByPids = async function (pids, uid, options) {
    return pids.map(pid => slug(escape(pid)));
  };
};

function internal() {}
"#
);

check!(
    commonjs_exported_object,
    Script::javascript(),
    r#"module.exports = {
  parse: function (text) { return text; },
  format(value) { return String(value); },
  LIMIT: 10,
};
"#
);

check!(
    javascript_test_with_mocha,
    Script::javascript(),
    r#"const assert = require('assert');
const User = require('../src/user');
const { Client } = require('../src/client');

describe('User', () => {
  let uid;
  before(async () => {
    uid = await User.create({ username: 'x', email: 'x@y.z' });
  });

  it('gets the display name', async () => {
    const name = await User.getDisplayName(uid);
    const client = new Client({ timeoutMs: 5, retries });
    assert.strictEqual(name, 'x');
    await assert.rejects(User.delete(0), new Error('[[error:no-user]]'));
  });
});
"#
);

check!(
    syntax_errors_keep_the_readable_parts,
    Script::typescript(),
    r#"export function good(): number { return 1; }
export function bad( {
  const x =
}
class Half { method() {
"#
);

/// Found by the `ts` fuzz target: an unterminated import specifier running into invalid UTF-8
/// gave a path-component use a span past the end of the text.
#[test]
fn invalid_utf8_in_an_import_path_keeps_spans_inside_the_text() {
    let mut text = b"import React from 'reannerProps\x05\x00\x00\x00  return <div className=\"ban".to_vec();
    text.extend([0xff; 20]);
    text.extend(b"ner\">{title}</div>;\n}\n");
    for frontend in hintlens_ts::frontends() {
        let index = frontend.extract(&text);
        for u in &index.uses {
            assert!(u.span.end_byte as usize <= text.len(), "{} at {:?} is past the end", u.name, u.span);
        }
    }
}

/// NodeBB's mixins (`module.exports = function (User) { User.x = … }`) define API by their own
/// statements; a function nested in them assigning a member (`res.render = …` of a middleware)
/// writes at run time and defines nothing.
#[test]
fn only_a_mixins_own_statements_define() {
    let src = b"module.exports = function (middleware) {
    middleware.render = function (req, res) {
        res.render = async function renderOverride() {};
        const helpers = {};
        helpers.format = () => 1;
    };
    middleware.other = () => {};
};
";
    let index = Script::javascript().extract(src);
    let defined: Vec<&str> = index.definitions.iter().map(|d| d.local_name.as_str()).collect();
    assert_eq!(defined, ["middleware.render", "middleware.other"], "{}", index.dump());
}

/// Destructured object parameters declare their keys (a caller's object literal names them),
/// unless a named type declares them; exported object literals declare their keys.
#[test]
fn destructured_parameters_and_exported_object_keys() {
    let js = b"async function call(url, { body, timeout = 5, sizeLimit: limit } = {}) {}
const api = { list() {}, count: 1 };
const hidden = { secret: 1 };
export default { version: 2 };
module.exports = api;
";
    let index = Script::javascript().extract(js);
    let defined: Vec<String> = index.definitions.iter().map(|d| format!("{} {}", d.kind, d.local_name)).collect();
    assert_eq!(
        defined,
        [
            "function call",
            "parameter call.body",
            "parameter call.timeout",
            "parameter call.sizeLimit",
            "constant api",
            "method api.list",
            "variable api.count",
            "constant hidden",
            "variable version",
        ],
        "{}",
        index.dump()
    );
    let ts = b"function Banner({ title }: BannerProps) {}
function Inline({ title }: { title: string }) {}
";
    let index = Script::tsx().extract(ts);
    let parameters: Vec<&str> =
        index.definitions.iter().filter(|d| d.kind == DefKind::Parameter).map(|d| d.local_name.as_str()).collect();
    assert_eq!(parameters, ["Inline.title"], "{}", index.dump());
}
