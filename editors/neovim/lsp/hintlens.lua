-- hintlens language server configuration for Neovim >= 0.11.
--
--   vim.lsp.enable('hintlens')
--
-- with this directory (editors/neovim) on 'runtimepath'.  Override any field
-- with vim.lsp.config('hintlens', { ... }).
--
-- Server command, first that is set:
--   1. $HINTLENS_SERVER          (path to the `hintlens` binary)
--   2. vim.g.hintlens_cmd        (a binary path, or a full command list)
--   3. { 'hintlens', 'lsp' }     (`hintlens` on PATH)

local HINTS_REQUEST = 'hintlens/hints'
local SHOW_HINTS = 'hintlens.showHints'
local SCRATCH_NAME = 'hintlens://hints'

local function server_cmd()
  local env = vim.env.HINTLENS_SERVER
  if env and env ~= '' then
    return { env, 'lsp' }
  end
  local g = vim.g.hintlens_cmd
  if type(g) == 'table' and #g > 0 then
    return g
  end
  if type(g) == 'string' and g ~= '' then
    return { g, 'lsp' }
  end
  return { 'hintlens', 'lsp' }
end

--- Shows a hint block (a `hintlens/hints` answer) in a scratch split, reusing it if open.
local function show_block(result)
  local text = type(result) == 'table' and result.text
  if type(text) ~= 'string' then
    vim.notify('hintlens: unexpected answer: ' .. vim.inspect(result), vim.log.levels.ERROR)
    return
  end
  local header = ('<!-- hintlens: %s + %s%s -->'):format(
    result.selection or '?',
    result.projection or '?',
    result.indexing and '; still indexing, may be incomplete' or ''
  )
  local lines = { header, '' }
  if vim.trim(text) == '' then
    table.insert(lines, '_No identifier crosses the code–test boundary: the hint block is empty._')
  else
    vim.list_extend(lines, vim.split(text:gsub('\n$', ''), '\n', { plain = true }))
  end

  local buf = vim.fn.bufnr(SCRATCH_NAME)
  if buf == -1 or not vim.api.nvim_buf_is_valid(buf) then
    buf = vim.api.nvim_create_buf(false, true)
    vim.api.nvim_buf_set_name(buf, SCRATCH_NAME)
    vim.bo[buf].bufhidden = 'hide'
    vim.bo[buf].swapfile = false
    vim.bo[buf].filetype = 'markdown'
  end
  vim.bo[buf].modifiable = true
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  vim.bo[buf].modified = false

  local win = vim.fn.bufwinid(buf)
  if win == -1 then
    vim.cmd('botright split')
    win = vim.api.nvim_get_current_win()
    vim.api.nvim_win_set_buf(win, buf)
    vim.api.nvim_win_set_height(win, math.min(math.max(#lines + 1, 5), 20))
  end
  return buf
end

local function get_client(bufnr)
  local clients = vim.lsp.get_clients({ name = 'hintlens', bufnr = bufnr })
  if #clients == 0 then
    clients = vim.lsp.get_clients({ name = 'hintlens' })
  end
  return clients[1]
end

local function on_answer(what)
  return function(err, result)
    if err then
      vim.notify(('hintlens: %s failed: %s'):format(what, err.message or vim.inspect(err)), vim.log.levels.ERROR)
      return
    end
    show_block(result)
  end
end

--- :HintlensHints [selection] [projection]
local function hints_command(opts)
  local client = get_client(vim.api.nvim_get_current_buf())
  if not client then
    vim.notify('hintlens: no hintlens language server is running', vim.log.levels.WARN)
    return
  end
  local params = vim.empty_dict()
  if opts.fargs[1] then
    params.selection = opts.fargs[1]
  end
  if opts.fargs[2] then
    params.projection = opts.fargs[2]
  end
  client:request(HINTS_REQUEST, params, on_answer(HINTS_REQUEST))
end

local function refresh_lenses(client, bufnr)
  if vim.api.nvim_buf_is_valid(bufnr) and client:supports_method('textDocument/codeLens', bufnr) then
    vim.lsp.codelens.refresh({ bufnr = bufnr })
  end
end

local capabilities = vim.tbl_deep_extend('force', vim.lsp.protocol.make_client_capabilities(), {
  workspace = { codeLens = { refreshSupport = true } },
})

---@type vim.lsp.Config
return {
  cmd = server_cmd(),
  filetypes = { 'python', 'java', 'go', 'typescript', 'typescriptreact', 'javascript', 'javascriptreact', 'rust', 'c', 'cpp', 'php', 'ruby' },
  root_markers = { '.hintlens.toml', '.git' },
  -- Empty: the server's defaults (base HEAD, defuse, declaration) and `.hintlens.toml` decide;
  -- whatever is set here wins over the file.
  init_options = {},
  capabilities = capabilities,

  -- Code lens commands run here instead of as a bare workspace/executeCommand,
  -- so the hint block the server returns is shown.
  commands = {
    [SHOW_HINTS] = function(command, ctx)
      local client = vim.lsp.get_client_by_id(ctx.client_id)
      if not client then
        return
      end
      client:request('workspace/executeCommand', {
        command = command.command,
        arguments = command.arguments,
      }, on_answer(SHOW_HINTS), ctx.bufnr)
    end,
  },

  handlers = {
    -- Neovim 0.11 has no default handler for this; the server may ask after indexing.
    ['workspace/codeLens/refresh'] = function(_, _, ctx)
      local client = vim.lsp.get_client_by_id(ctx.client_id)
      for bufnr in pairs(client and client.attached_buffers or {}) do
        vim.lsp.codelens.refresh({ bufnr = bufnr })
      end
      return vim.NIL
    end,
  },

  on_attach = function(client, bufnr)
    vim.api.nvim_create_user_command('HintlensHints', hints_command, {
      nargs = '*',
      desc = 'hintlens: show the hint block ([selection] [projection])',
    })

    refresh_lenses(client, bufnr)
    local group = vim.api.nvim_create_augroup('hintlens_codelens_' .. bufnr, { clear = true })
    vim.api.nvim_create_autocmd({ 'BufEnter', 'InsertLeave', 'BufWritePost' }, {
      group = group,
      buffer = bufnr,
      callback = function()
        refresh_lenses(client, bufnr)
      end,
    })
    -- Lenses asked for while the server was still indexing come back empty:
    -- ask again when its work-done progress ends.
    vim.api.nvim_create_autocmd('LspProgress', {
      group = group,
      pattern = 'end',
      callback = function(ev)
        if ev.data and ev.data.client_id == client.id then
          refresh_lenses(client, bufnr)
        end
      end,
    })
  end,
}
