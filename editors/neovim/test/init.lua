-- init.lua for the headless end-to-end test: `nvim --headless --clean -u init.lua`.
-- The driver (run.py) passes the paths in the environment.
local root = assert(vim.env.HINTLENS_NVIM_ROOT, 'HINTLENS_NVIM_ROOT (editors/neovim) is not set')

vim.opt.runtimepath:prepend(root)
vim.opt.swapfile = false
vim.opt.shadafile = 'NONE'

-- The documented override (vim.g.hintlens_cmd); the driver unsets $HINTLENS_SERVER so this is what counts.
vim.g.hintlens_cmd = assert(vim.env.HINTLENS_E2E_SERVER, 'HINTLENS_E2E_SERVER is not set')
vim.lsp.set_log_level('WARN')

-- Observe how the server process ends (the config itself has no on_exit).
_G.hintlens_e2e_exit = nil
vim.lsp.config('hintlens', {
  on_exit = function(code, signal)
    _G.hintlens_e2e_exit = { code = code, signal = signal }
  end,
})
vim.lsp.enable('hintlens')

vim.api.nvim_create_autocmd('VimEnter', {
  once = true,
  callback = function()
    vim.schedule(function()
      dofile(root .. '/test/e2e.lua')
    end)
  end,
})
