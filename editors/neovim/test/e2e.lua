-- End-to-end test body, run by init.lua after VimEnter.  Writes what it saw as
-- JSON to $HINTLENS_E2E_OUT and exits 0 when every check passed, 1 otherwise;
-- run.py checks the JSON again.

local repo = assert(vim.env.HINTLENS_E2E_REPO)
local out_path = assert(vim.env.HINTLENS_E2E_OUT)
local TIMEOUT = tonumber(vim.env.HINTLENS_E2E_TIMEOUT_MS or '') or 90000

local report = { failures = {}, steps = {} }
local t0 = vim.uv.hrtime()

local function step(msg)
  table.insert(report.steps, ('%6.2fs %s'):format((vim.uv.hrtime() - t0) / 1e9, msg))
end

local function check(cond, msg)
  if not cond then
    table.insert(report.failures, msg)
  end
  return cond
end

local function wait(ms, cond, what)
  local ok = vim.wait(ms, cond, 50)
  check(ok, ('timed out after %d ms waiting for %s'):format(ms, what))
  return ok
end

local function hintlens_client(bufnr)
  return vim.lsp.get_clients({ name = 'hintlens', bufnr = bufnr })[1]
end

local function open(rel)
  vim.cmd.edit(vim.fn.fnameescape(repo .. '/' .. rel))
  return vim.api.nvim_get_current_buf()
end

--- Position (0-based) inside the nth whole-word occurrence of word.
local function position_of(bufnr, word, nth)
  local seen = 0
  for i, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    local init = 1
    while true do
      local s, e = line:find('%f[%w_]' .. word .. '%f[^%w_]', init)
      if not s then
        break
      end
      if seen == nth then
        return { line = i - 1, character = s - 1 + 2 }
      end
      seen = seen + 1
      init = e + 1
    end
  end
  error(word .. ' #' .. nth .. ' not found')
end

local function hover_text(result)
  if type(result) ~= 'table' then
    return ''
  end
  local c = result.contents
  local function one(x)
    if type(x) == 'string' then
      return x
    elseif type(x) == 'table' then
      return x.value or ''
    end
    return ''
  end
  if type(c) == 'table' and vim.islist(c) then
    return table.concat(vim.tbl_map(one, c), '\n')
  end
  return one(c)
end

local function lens_titles(lenses)
  local titles = {}
  for _, l in ipairs(lenses or {}) do
    if l.command then
      table.insert(titles, l.command.title)
    end
  end
  return titles
end

local function has_hint_title(titles)
  for _, t in ipairs(titles) do
    if vim.startswith(t, 'hint') then
      return true
    end
  end
  return false
end

local function scratch_text()
  local buf = vim.fn.bufnr('hintlens://hints')
  if buf == -1 then
    return nil
  end
  return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n')
end

local function wipe_scratch()
  local buf = vim.fn.bufnr('hintlens://hints')
  if buf ~= -1 then
    vim.api.nvim_buf_delete(buf, { force = true })
  end
end

local function main()
  -- 1. Open the test file: FileType python starts and attaches the client.
  local tbuf = open('tests/test_text.py')
  report.filetype = vim.bo[tbuf].filetype
  vim.wait(20000, function()
    return hintlens_client(tbuf) ~= nil or _G.hintlens_e2e_exit ~= nil
  end, 50)
  if _G.hintlens_e2e_exit and not hintlens_client(tbuf) then
    report.server_exit = _G.hintlens_e2e_exit
    check(false, ('the server exited (code %s) before the client attached'):format(_G.hintlens_e2e_exit.code))
    return
  end
  if not check(hintlens_client(tbuf) ~= nil, 'timed out after 20000 ms waiting for the client to attach') then
    return
  end
  local client = hintlens_client(tbuf)
  report.cmd = client.config.cmd
  report.root_dir = client.config.root_dir
  report.init_options = client.config.init_options
  step('attached to tests/test_text.py')

  local cbuf = open('pkg/text.py')
  wait(10000, function()
    return hintlens_client(cbuf) ~= nil
  end, 'the client to attach to pkg/text.py')
  step('attached to pkg/text.py')

  -- 2. Wait for indexing to finish.
  local deadline = vim.uv.now() + TIMEOUT
  local hints
  while vim.uv.now() < deadline do
    local resp, err = client:request_sync('hintlens/hints', vim.empty_dict(), 10000, cbuf)
    if resp and resp.result and resp.result.indexing == false then
      hints = resp.result
      break
    end
    report.last_hints_answer = resp or err
    vim.wait(200)
  end
  if not check(hints ~= nil, 'hintlens/hints never answered indexing = false') then
    return
  end
  report.hints = hints
  check(type(hints.text) == 'string' and hints.text:find('slugify', 1, true), 'hintlens/hints text does not mention slugify')
  step('indexed')

  -- 3. Hover on the call of slugify in the test.
  local pos = position_of(tbuf, 'slugify', 1)
  local answers = vim.lsp.buf_request_sync(tbuf, 'textDocument/hover', {
    textDocument = { uri = vim.uri_from_bufnr(tbuf) },
    position = pos,
  }, 10000)
  local answer = answers and answers[client.id]
  report.hover = answer and answer.result
  report.hover_error = answer and answer.err
  report.hover_text = hover_text(report.hover)
  check(report.hover_text:lower():find('slugify', 1, true), 'hover does not mention slugify')
  check(report.hover_text:lower():find('test', 1, true), 'hover does not mention test')
  step('hover')

  -- 4. Code lenses of pkg/text.py, asked directly.
  answers = vim.lsp.buf_request_sync(cbuf, 'textDocument/codeLens', {
    textDocument = { uri = vim.uri_from_bufnr(cbuf) },
  }, 10000)
  answer = answers and answers[client.id]
  report.code_lenses = answer and answer.result
  report.code_lens_titles = lens_titles(report.code_lenses)
  check(has_hint_title(report.code_lens_titles), 'no code lens titled hint… on pkg/text.py')
  step('codeLens request')

  -- 5. The config's own refresh: entering the buffer refreshes its lenses.
  vim.cmd.buffer(tbuf)
  vim.cmd.buffer(cbuf)
  wait(10000, function()
    return has_hint_title(lens_titles(vim.lsp.codelens.get(cbuf)))
  end, 'vim.lsp.codelens.get(pkg/text.py) to hold a hint… lens')
  report.displayed_lens_titles = lens_titles(vim.lsp.codelens.get(cbuf))
  step('codelens.refresh')

  -- Opens `path` (its filetype attaches the same client), hovers on occurrence `nth` of `word`
  -- and checks the hover mentions it; returns the buffer's filetype and the hover's text.
  local function hover_in(path, word, nth, language)
    local buf = open(path)
    wait(10000, function()
      return hintlens_client(buf) ~= nil
    end, 'the client to attach to ' .. path)
    local replies = vim.lsp.buf_request_sync(buf, 'textDocument/hover', {
      textDocument = { uri = vim.uri_from_bufnr(buf) },
      position = position_of(buf, word, nth),
    }, 10000)
    local reply = replies and replies[client.id]
    local text = hover_text(reply and reply.result)
    check(text:find(word, 1, true), 'the ' .. language .. ' hover does not mention ' .. word)
    return vim.bo[buf].filetype, text
  end

  -- 5b. Go: FileType go attaches the same client; hover on the new method's call in the
  -- test, and a hint lens on its declaration.
  report.go_filetype, report.go_hover_text = hover_in('store/store_test.go', 'SetLimit', 0, 'Go')
  local gcode = open('store/store.go')
  wait(10000, function()
    return hintlens_client(gcode) ~= nil
  end, 'the client to attach to store/store.go')
  answers = vim.lsp.buf_request_sync(gcode, 'textDocument/codeLens', {
    textDocument = { uri = vim.uri_from_bufnr(gcode) },
  }, 10000)
  answer = answers and answers[client.id]
  report.go_lens_titles = lens_titles(answer and answer.result)
  check(has_hint_title(report.go_lens_titles), 'no code lens titled hint… on store/store.go')
  vim.cmd.buffer(cbuf)
  step('go hover and lens')

  -- 5c. TypeScript: FileType typescript attaches the same client; hover on the new function's
  -- call in the test (occurrence 0 is the import, 1 the test's title).
  report.ts_filetype, report.ts_hover_text = hover_in('web/format.test.ts', 'formatBytes', 2, 'TypeScript')
  vim.cmd.buffer(cbuf)
  step('typescript hover')

  -- 5d. PHP: FileType php attaches the same client; hover on the new method's call in the test.
  report.php_filetype, report.php_hover_text = hover_in('tests/GreeterTest.php', 'shout', 0, 'PHP')
  vim.cmd.buffer(cbuf)
  step('php hover')

  -- 6. :HintlensHints shows the hint block in a scratch split.
  vim.cmd('HintlensHints')
  wait(10000, function()
    local t = scratch_text()
    return t ~= nil and t:find('slugify', 1, true) ~= nil
  end, ':HintlensHints to show a hint block mentioning slugify')
  report.hintlens_hints_buffer = scratch_text()
  step(':HintlensHints')

  -- With arguments: selection and projection; the open scratch buffer is reused.
  vim.cmd('HintlensHints defuse name')
  wait(10000, function()
    local t = scratch_text()
    return t ~= nil and t:find('defuse + name', 1, true) ~= nil
  end, ':HintlensHints defuse name to show the name projection')
  report.hintlens_hints_name_buffer = scratch_text()
  wipe_scratch()
  step(':HintlensHints defuse name')

  -- 7. Running the lens (what vim.lsp.codelens.run() does) shows it too.
  local lens
  for _, l in ipairs(vim.lsp.codelens.get(cbuf)) do
    if l.command and vim.startswith(l.command.title, 'hint') then
      lens = l
    end
  end
  if check(lens ~= nil, 'no hint lens to run') then
    vim.api.nvim_set_current_buf(cbuf)
    client:exec_cmd(lens.command, { bufnr = cbuf })
    wait(10000, function()
      local t = scratch_text()
      return t ~= nil and t:find('slugify', 1, true) ~= nil
    end, 'running the hint lens to show a hint block mentioning slugify')
    report.lens_command_buffer = scratch_text()
  end
  step('lens command')

  -- 8. Stop the server: shutdown + exit, and it should end with code 0.
  client:stop()
  wait(10000, function()
    return _G.hintlens_e2e_exit ~= nil
  end, 'the server to exit after shutdown')
  report.server_exit = _G.hintlens_e2e_exit
  check(report.server_exit and report.server_exit.code == 0, 'the server did not exit with code 0')
  step('stopped')
end

local ok, err = xpcall(main, debug.traceback)
if not ok then
  check(false, 'error: ' .. tostring(err))
end
report.messages = vim.fn.execute('messages')
report.lsp_log = vim.lsp.get_log_path()

local f = assert(io.open(out_path, 'w'))
f:write(vim.json.encode(report))
f:close()

if #report.failures == 0 then
  vim.cmd('qall!')
else
  vim.cmd('cquit! 1')
end
