-- The REPL's Lua side: compiling input the way `lua -i` does, readable printing, completion
-- and the dot commands. It lives in a hidden table so the user's globals stay theirs.
local repl = {}
-- The file the REPL started on (or ""), the session's Swift side, and the host's whole debug
-- library (under --sandbox scripts get only part of it; completion needs getmetatable and
-- getupvalue, and never hands what they return to a script). session.clock() returns the time,
-- the pending timers, the next one's due time, whether the clock is paused and its kind
-- ("wall" or "virtual"); pause() and resume() stop and start it; reload() runs the app file
-- again and returns what to print; advance(seconds) fires the timers due on the way, one turn
-- each (a failing one is reported as [timerFailed] and the rest fire), and returns how many
-- fired. Everything here runs inside the session's turns.
local appFile, session, hostDebug, pristine = ...
-- Every free name below reads the globals as they were before any script ran (`_G` is the live
-- global table): a script's `type = "primary"` or `load = nil` is its own business, as in
-- `lua -i`. The app is the host ckrun runs (session.app()), else the script's global `app`.
local _ENV = pristine or _G   -- none only if memory ran out at start-up
local rawGetmetatable, getupvalue = hostDebug.getmetatable, hostDebug.getupvalue
-- Strings' methods go through the string metatable, which a script may change
-- (`getmetatable("").__index = f`, `string.sub = nil`): the REPL calls the functions.
local strsub, strfind, strmatch, strgsub, strgmatch = string.sub, string.find, string.match, string.gsub, string.gmatch

-- Printing ------------------------------------------------------------------------------

-- Lua's reserved words are no names: a key "end" prints as ["end"], "true" apart from true
-- (the dump's rule, DumpText.key).
local reserved = {}
for word in strgmatch("and break do else elseif end false for function goto if in local nil not or repeat return then true until while", "%a+") do
  reserved[word] = true
end

local function isIdentifier(s) return type(s) == "string" and not reserved[s] and strmatch(s, "^[%a_][%w_]*$") ~= nil end

-- A string as the dump quotes it (session.quote: the dump's one escaper, `"\255"` for a byte that
-- is not UTF-8, `\n` for a line break).
local quote = session.quote

-- A key as a table constructor writes it: a name bare, anything else in brackets.
-- A string the dump quotes as it is (DumpText's plain text: no control character, quote,
-- backslash or line separator, and UTF-8): its key text needs no call to Swift.
local function isPlain(s)
  return not strfind(s, '[%c"\\]') and utf8.len(s) ~= nil and not strfind(s, "\194\133", 1, true)
    and not strfind(s, "\226\128[\168\169]")
end

local function keyText(k, depth, seen, indent, format)
  if isIdentifier(k) then return k end
  if type(k) == "string" and isPlain(k) then return '["' .. k .. '"]' end
  return "[" .. format(k, depth, seen, indent) .. "]"
end

-- Keys in the order the dump lists them, the same on every run: numbers by value, then the
-- others by their printed text (`[false]`, `[true]`, `a`, `b`; tables by their contents).
local function keyLess(a, textA, b, textB)
  local na, nb = type(a) == "number", type(b) == "number"
  if na ~= nb then return na end
  if na then return a < b end
  return textA < textB
end

local function sortKeys(keys, textOf)
  table.sort(keys, function(a, b) return keyLess(a, textOf[a], b, textOf[b]) end)
  return keys
end

-- The first `limit` keys of `v` in that order, leaving out its array part (1..n), with their
-- texts, and the number of such keys: one pass, each key compared with the last kept (a table
-- of a million keys prints its first 50 without sorting the million).
local function firstKeys(v, n, limit, depth, seen, indent, format)
  local keys, texts, count = {}, {}, 0
  for k in pairs(v) do
    if not (math.type(k) == "integer" and k >= 1 and k <= n) then
      count = count + 1
      local kept = #keys
      if limit > 0 then
        local text = type(k) ~= "number" and keyText(k, depth, seen, indent, format) or nil
        if kept < limit or keyLess(k, text, keys[kept], texts[kept]) then
          local i = kept + 1
          while i > 1 and keyLess(k, text, keys[i - 1], texts[i - 1]) do
            keys[i], texts[i] = keys[i - 1], texts[i - 1]
            i = i - 1
          end
          keys[i], texts[i] = k, text
          if kept + 1 > limit then keys[limit + 1], texts[limit + 1] = nil, nil end
        end
      end
    end
  end
  return keys, texts, count
end

-- What `#v` says, as a count of entries from 1: a `__len` may return anything.
local function arrayLength(v)
  local n = #v
  if type(n) ~= "number" or n ~= n or n < 1 then return 0 end
  if n >= 2^63 then return math.maxinteger end
  return math.floor(n)
end

-- A value printed by its contents: a table without `__tostring`, or a read-only view of one (a
-- component's props or state: a userdata that reads through with `__pairs`).
local function showsContents(v)
  local t, mt = type(v), rawGetmetatable(v)
  if t == "table" then return not (mt and rawget(mt, "__tostring")) end
  return t == "userdata" and mt ~= nil and rawget(mt, "__pairs") ~= nil and rawget(mt, "__tostring") == nil
end

-- Entries a table shows; the rest are counted, never read: showing a table costs what it shows,
-- whatever its `__len` claims (a proxy saying math.maxinteger prints at once).
local SHOWN = 50

local function format(v, depth, seen, indent)
  local t = type(v)
  if t == "string" then return quote(v) end
  if not showsContents(v) then return tostring(v) end
  if seen[v] then return "<cycle>" end
  if depth > 4 then return "{...}" end
  seen[v] = true
  local n = arrayLength(v)
  local parts = {}
  for i = 1, math.min(n, SHOWN) do parts[#parts + 1] = format(v[i], depth + 1, seen, indent .. "  ") end
  local keys, texts, count = firstKeys(v, n, SHOWN - #parts, depth + 1, seen, indent, format)
  for i, k in ipairs(keys) do
    parts[#parts + 1] = (texts[i] or "[" .. tostring(k) .. "]") .. " = " .. format(v[k], depth + 1, seen, indent .. "  ")
  end
  seen[v] = nil
  local hidden = count - #keys
  local more = n - math.min(n, SHOWN)
  if hidden > 0 then
    if more > math.maxinteger - hidden then more = more + 0.0 end
    more = more + hidden
  end
  if more > 0 then
    parts[#parts + 1] = "… (" .. (math.type(more) == "integer" and tostring(more) or string.format("%.0f", more)) .. " more)"
  end
  local flat = "{" .. table.concat(parts, ", ") .. "}"
  if #flat <= 72 and not strfind(flat, "\n", 1, true) then return flat end
  return "{\n" .. indent .. "  " .. table.concat(parts, ",\n" .. indent .. "  ") .. "\n" .. indent .. "}"
end

-- The results packed once (`select(i, ...)` copied the rest each time); ReplSession passes a
-- slice at a time, so a million results fit the stack.
function repl.format(...)
  local results, out = table.pack(...), {}
  for i = 1, results.n do out[i] = format(results[i], 1, {}, "") end
  return table.concat(out, "\t")
end

-- The text of a `_PROMPT` or `_PROMPT2` that is not a string, as lua.c's get_prompt makes it.
function repl.promptText(v) return tostring(v) end

-- Compiling -------------------------------------------------------------------------------

-- Returns a function, or nil and "incomplete", or nil and the syntax error.
function repl.compile(source)
  repl.quietTrace = false
  if strsub(source, 1, 1) == "=" then source = "return " .. strsub(source, 2) end
  local f = load("return " .. source, "=stdin")
  if f then return f end
  local g, err = load(source, "=stdin")
  if g then return g end
  if strsub(err, -5) == "<eof>" then return nil, "incomplete" end
  -- Lua's parser runs the turn's message handler on "C stack overflow": its traceback (of the
  -- REPL's own frames) is no part of the message.
  local cut = strfind(err, "\nstack traceback:\n", 1, true)
  if cut then err = strsub(err, 1, cut - 1) end
  if strsub(err, 1, 6) ~= "stdin:" then err = "stdin: " .. err end
  return nil, err
end

-- Completion ------------------------------------------------------------------------------

-- The fields of runtime objects, which answer them from Swift (their metatables are locked;
-- the methods are in an __index table that debug.getmetatable can see).
local objectFields = {
  ["ck.Host"] = {"root", "view", "generation", "isMounted", "isDestroyed"},
  ["ck.Component"] = {"props", "state", "class", "name", "key", "scope", "generation", "path", "view", "isMounted",
                      "updateState", "action"},
  ["ck.Controller"] = {"component", "view", "class", "name", "scope", "isInvalidated"},
  ["ck.ComponentClass"] = {"name", "render", "view", "scope", "initialState", "controller", "pure", "actions",
                           "canPerformAction", "shouldUpdate"},
  ["ck.Action"] = {"kind", "selector", "types", "behavior", "target", "scope"},
  ["ck.View"] = {"class", "superview", "subviews", "attributes", "component", "host"},
  ["ck.Scope"] = {"path", "identifier", "key", "state", "isLive", "controller", "component"},
  ["ck.Event"] = {"type", "view"},
  ["ck.TraceEntry"] = {"selector", "sender", "handled", "handler", "responders", "visited", "line"},
}

-- Completion only looks: it reads tables with rawget and next, follows a metatable's `__index`
-- only when that is a table, and enters a function only for a runtime object (a handle
-- session.isObject knows by its metatable, whose fields Swift answers): no script's
-- `__index`, `__pairs`, `__len` or `__eq` runs on a Tab, so none can hang the prompt.
local isObject = session.isObject or function() return false end

-- The step of the `__index` chain after `t`: a table, a runtime object's method table, or nil.
local function indexStep(t)
  local mt = rawGetmetatable(t)
  if type(mt) ~= "table" then return nil, nil end
  local fields = isObject(t) and objectFields[rawget(mt, "__name")] or nil
  local index = rawget(mt, "__index")
  -- A runtime object's __index is a C closure over its method table.
  if type(index) == "function" then index = fields and select(2, getupvalue(index, 1)) or nil end
  if type(index) ~= "table" then index = nil end
  return index, fields
end

-- A runtime object's field, which Swift answers (no script code runs).
local function objectField(object, name) return object[name] end

-- `v[name]` as completion reads it: raw, along `__index` tables, and a runtime object's field
-- from Swift; nil where only a script's function could answer.
local function rawField(v, name)
  local t, seen = v, {}
  while t ~= nil and not seen[t] do
    seen[t] = true
    if type(t) == "table" then
      local found = rawget(t, name)
      if found ~= nil then return found end
    end
    local index, fields = indexStep(t)
    if fields and rawequal(t, v) then
      local ok, found = pcall(objectField, v, name)
      if ok then return found end
      return nil
    end
    t = index
  end
  return nil
end

local function fieldsOf(v)
  local names, seen = {}, {}
  local t = v
  while t ~= nil and not seen[t] do
    seen[t] = true
    if type(t) == "table" then
      for k in next, t do if type(k) == "string" then names[k] = true end end
    end
    local index, fields = indexStep(t)
    for _, name in ipairs(fields or {}) do names[name] = true end
    t = index
  end
  return names
end

-- A line is a dot command when its first word starts with a dot and no digit follows it: `.5`
-- is Lua's number, as in lua -i (ReplSession decides the same way).
local function isDotCommand(text) return strmatch(text, "^%s*%.") ~= nil and strmatch(text, "^%s*%.%d") == nil end

function repl.complete(text)
  if isDotCommand(text) then
    local candidates = repl.completeCommand(text)
    table.sort(candidates)
    return candidates
  end
  local base, sep, partial = strmatch(text, "^(.-)([%.:])([%w_]*)$")
  local candidates, prefix = {}, ""
  if base and base ~= "" then
    -- Only names and fields (`app.root`), read raw: completing never calls a script's function.
    if not strmatch(base, "^[%a_][%w_]*[%w_.]*$") or strfind(base, "..", 1, true) then return {} end
    local v = _G
    for name in strgmatch(base, "[^.]+") do
      v = rawField(v, name)
      if v == nil then return {} end
    end
    prefix = base .. sep
    for name in next, fieldsOf(v) do
      -- After ':' only methods; after '.' anything.
      local callable = type(rawField(v, name)) == "function"
      if strsub(name, 1, #partial) == partial and (sep == "." or callable) and not strmatch(name, "^__") then
        candidates[#candidates + 1] = prefix .. name
      end
    end
  else
    for name in next, fieldsOf(_G) do
      if strsub(name, 1, #text) == text then candidates[#candidates + 1] = name end
    end
    for _, kw in ipairs({"and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto",
                         "if", "in", "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while"}) do
      if strsub(kw, 1, #text) == text then candidates[#candidates + 1] = kw end
    end
  end
  table.sort(candidates)
  return candidates
end

-- Dot commands ----------------------------------------------------------------------------

-- Each command is declared once, by `define`: its name, its usage (the name, then its
-- arguments' placeholders), its help line and its handler. The dispatcher (repl.dot), .help and
-- completion (completeCommand) read the declarations; an argument completes by its placeholder
-- (`argumentCandidates`).
local commands, order = {}, {}

-- A dot command's own complaint (a usage error, no app): printed as it is, without a
-- traceback. Errors from the user's code reach the session with theirs.
local FAIL = "\1"
local function fail(message) error(FAIL .. message, 0) end

-- The app ckrun runs, even after the script rebound the global `app` to something else.
local function needApp()
  local app = session and session.app and session.app()
  if app == nil then app = rawget(_G, "app") end
  if type(app) ~= "userdata" then fail("no app is running: start one with ckrun repl app.lua, or ck.run(provider)") end
  return app
end

local function find(query)
  local c = needApp():find(query)
  if not c then fail("nothing matches " .. query .. " (try .tree)") end
  return c
end

local function define(name, usage, text, fn)
  local arguments = {}
  for word in strgmatch(usage, "%S+") do arguments[#arguments + 1] = (strgsub(word, "[%[%]]", "")) end
  table.remove(arguments, 1)
  commands[name] = {usage = usage, help = text, run = fn, arguments = arguments}
  order[#order + 1] = name
end

-- A value as a query's `#id` reads it (unquoted, whole), or nil when a query cannot hold it.
local function queryWord(v)
  if type(v) ~= "string" and type(v) ~= "number" and type(v) ~= "boolean" then return nil end
  local word = tostring(v)
  if word == "" or strfind(word, "[%s>]") then return nil end
  return word
end

-- The query that finds `c` (`find` returns it): its label (`Item#3`) if a query reads it so,
-- else Class#identifier, Class#key or Class; nil when none finds it first. A completion inserts
-- only what `find` takes and what finds the component it names.
local function queryFor(c)
  local scope, name = c.scope, c.name
  local id, key = scope and queryWord(scope.identifier), queryWord(c.key)
  local forms = {strmatch(c.path, "[^/]*$")}
  if id then forms[#forms + 1] = name .. "#" .. id end
  if key then forms[#forms + 1] = name .. "#" .. key end
  forms[#forms + 1] = name
  for _, q in ipairs(forms) do
    local ok, found = pcall(function() return needApp():find(q) end)
    if ok and rawequal(found, c) then return q end
  end
  return nil
end

-- The queries of the app's components whose class name fits `partial` (`Ro` or `Row#7`), each
-- once, in tree order.
local function componentQueries(partial)
  local ok, all = pcall(function() return needApp():findAll("*") end)
  local queries, seen = {}, {}
  for _, c in ipairs(ok and all or {}) do
    local name = c.name
    if strsub(name, 1, #partial) == strsub(partial, 1, #name) then
      local q = queryFor(c)
      if q and not seen[q] then seen[q], queries[#queries + 1] = true, q end
    end
  end
  return queries
end

-- What an argument completes to, by its placeholder: QUERY, a query finding a component; words
-- (`on|off`), each word; any other placeholder (SECONDS), nothing.
local argumentCandidates = {QUERY = componentQueries}

local function candidatesFor(placeholder, partial)
  if argumentCandidates[placeholder] then return argumentCandidates[placeholder](partial) end
  local words = {}
  if placeholder and strfind(placeholder, "|", 1, true) then
    for word in strgmatch(placeholder, "[^|]+") do words[#words + 1] = word end
  end
  return words
end

-- `.ch` completes to the names (`.chain`); after the name, the word being typed completes as
-- the argument at its position (`.chain Bu` → `.chain Button`). Candidates are whole lines.
function repl.completeCommand(text)
  local lead, name, rest = strmatch(text, "^(%s*%.)(%S*)(.*)$")
  local out = {}
  if rest == "" then
    for _, n in ipairs(order) do
      if strsub(n, 1, #name) == name then out[#out + 1] = lead .. n end
    end
    return out
  end
  local command = commands[name]
  local typed, partial = strmatch(rest, "^(.-)(%S*)$")
  local _, position = strgsub(typed, "%S+", "")
  for _, word in ipairs(command and candidatesFor(command.arguments[position + 1], partial) or {}) do
    if strsub(word, 1, #partial) == partial then out[#out + 1] = strsub(text, 1, #text - #partial) .. word end
  end
  return out
end

-- .tree shows state two tables deep (and 20 entries a table): after it, how to print the
-- first state it cut short, e.g. `=app.root.state.threads[1]`.
local function keyPath(k)
  if isIdentifier(k) then return "." .. k end
  return "[" .. format(k, 1, {}, "") .. "]"
end

local function sortedKeys(t)
  local keys, textOf = {}, {}
  for k in pairs(t) do
    keys[#keys + 1] = k
    if type(k) ~= "number" then textOf[k] = keyText(k, 1, {}, "", format) end
  end
  return sortKeys(keys, textOf)
end

-- A table, or a read-only view of one (state and props are views: userdata that pairs walks).
local function isTableLike(v)
  local t = type(v)
  return t == "table" or (t == "userdata" and (pcall(pairs, v)))
end

-- The first table inside a table of the state, in the order the dump lists them.
local function elidedPath(state)
  if not isTableLike(state) then return "" end
  for _, k1 in ipairs(sortedKeys(state)) do
    local inner = state[k1]
    if isTableLike(inner) then
      for _, k2 in ipairs(sortedKeys(inner)) do
        if isTableLike(inner[k2]) then return keyPath(k1) .. keyPath(k2) end
      end
    end
  end
  return ""
end

-- A query that finds `c` (found in the dump at `line`, the components in dump order): its label,
-- else its label with the sibling position (`S[2]`), each checked by finding it; else by its
-- place in app:findAll("*") (the dump's order).
local function queryFor(app, c, label, line)
  local ok, found = pcall(app.find, app, label)
  if ok and rawequal(found, c) then return "app:find(" .. string.format("%q", label) .. ")" end
  for k = 2, 20 do
    local q = label .. "[" .. k .. "]"
    ok, found = pcall(app.find, app, q)
    if not ok or found == nil then break end
    if rawequal(found, c) then return "app:find(" .. string.format("%q", q) .. ")" end
  end
  return 'app:findAll("*")[' .. line .. "]"
end

local function elisionHint(dump)
  local app, line = needApp(), 0
  for text in strgmatch(dump, "[^\n]+") do
    line = line + 1
    local rest = (strgsub((strgsub(text, "^%s*", "")), "^%(depth %d+%) ", ""))
    local state = strmatch(rest, " state=(.*)$")
    local label = strmatch(rest, "^(.-) [%[<]") or strmatch(rest, "^(.-) state=")
    if state and (strfind(state, "{…}", 1, true) or strfind(state, ", …}", 1, true)) then
      local ok, all = pcall(app.findAll, app, "*")
      local c = ok and all[line]
      if line == 1 then c = app.root end
      if not c then return "({…} and … mark what .tree leaves out; print a component's state whole: =app:find(QUERY).state)" end
      local base = line == 1 and "app.root" or queryFor(app, c, label, line)
      return "({…} and … mark what .tree leaves out; print it whole: =" .. base .. ".state" .. elidedPath(c.state) .. ")"
    end
  end
end

define("tree", "tree", "print the app's tree (app:dump())", function()
  local dump = needApp():dump{depth = 2, width = 20}
  io.write(dump)
  local hint = elisionHint(dump)
  if hint then print(hint) end
end)
-- How the chain prints a responder: runtime objects by tostring, host responders by name.
local function responderName(r)
  if type(r) == "table" then return "<" .. tostring(rawget(r, "name") or "table") .. ">" end
  return tostring(r)
end

define("chain", "chain QUERY", "print the responder chain of a component", function(args)
  local parts = {}
  for i, r in ipairs(ck.responderChain(find(args))) do parts[i] = responderName(r) end
  parts[#parts + 1] = "nil"
  print(table.concat(parts, " -> "))
end)
-- QUERY may hold spaces (descendants): the longest prefix that matches a component is the
-- query, the next word the selector, the rest the arguments.
local SEND_USAGE = "usage: .send QUERY SELECTOR [TYPES] [ARGS] "
local function matches(query)
  local ok, found = pcall(function() return needApp():find(query) end)
  return ok and found
end

local function parseSend(args)
  needApp()
  local words, unnamed = {}, nil
  for w in strgmatch(args, "%S+") do words[#words + 1] = w end
  for k = #words - 1, 1, -1 do
    local query, selector = table.concat(words, " ", 1, k), words[k + 1]
    local found = matches(query)
    if found and strmatch(selector, "^[%a_][%w_]*$") then
      local rest = strmatch(args, "^%s*" .. string.rep("%S+%s+", k) .. "%S+%s*(.-)%s*$") or ""
      return found, selector, rest
    end
    unnamed = unnamed or (found and selector)
  end
  if #words > 0 and matches(args) then fail(SEND_USAGE .. "(the SELECTOR is missing after " .. args .. ")") end
  if unnamed then fail(SEND_USAGE .. "(" .. unnamed .. " is no SELECTOR: a selector is a Lua name, as pick)") end
  fail(SEND_USAGE .. "(no component matches the query; try .tree)")
end

-- `.send Q sel {"int", "string"} 3, "x"`: a leading list of strings types the action (each
-- name checked as ck.action checks it: a misspelt one is its [unknownType]); without one, each
-- argument is typed "any".
local function isStringList(t)
  if type(t) ~= "table" or getmetatable(t) ~= nil or next(t) == nil then return false end
  local n = 0
  for _ in pairs(t) do n = n + 1 end
  for i = 1, n do
    if type(t[i]) ~= "string" then return false end
  end
  return true
end

-- The leading `{...}` of ARGS, if it is a list of strings, and the text after it.
local function leadingTypes(selector, rest)
  if not strmatch(rest, "^{") then return nil, rest end
  for close in strgmatch(rest, "()}") do
    local f = load("return " .. strsub(rest, 1, close), "=types")
    local ok, types = false, nil
    if f then ok, types = pcall(f) end
    if ok and isStringList(types) then
      -- Called by pcall, ck.action names no line (the REPL's own would mean nothing).
      local valid, err = pcall(ck.action, selector, types)
      if not valid then
        fail(tostring(err) .. " (a leading list of strings is the send's TYPES; to pass one as an argument, give the types first: .send QUERY "
          .. selector .. ' {"table"} {"a", "b"})')
      end
      return types, (strgsub(strsub(rest, close + 1), "^%s*,?%s*", ""))
    end
  end
  return nil, rest
end

-- The offsets where `text` may end an expression list: before each space, and its end.
local function stops(text)
  local out = {}
  for at in strgmatch(text, "()%s") do out[#out + 1] = at - 1 end
  out[#out + 1] = #text
  return out
end

-- ARGS are Lua expressions, separated by commas or spaces (`1 2` is `1, 2`): the longest
-- prefix ending before a space that reads as an expression list is one piece, then the rest.
local function readArguments(selector, text)
  local values = {n = 0}
  while text ~= "" do
    local f, stop
    local ends = stops(text)
    for i = #ends, 1, -1 do
      f = load("return " .. strsub(text, 1, ends[i]), "=args")
      if f then stop = ends[i] break end
    end
    if not f then
      local _, err = load("return " .. text, "=args")
      fail("cannot read the arguments of \"" .. selector .. "\": " .. strgsub(err, "^args:%d+: ", "")
        .. " (ARGS are Lua expressions, separated by spaces or commas: .send QUERY " .. selector .. " 1 \"two\" {3})")
    end
    local got = table.pack(f())
    for i = 1, got.n do values[values.n + i] = got[i] end
    values.n = values.n + got.n
    text = strgsub(strsub(text, stop + 1), "^%s*,?%s*", "")
  end
  return values
end

local function sendArguments(selector, rest)
  local types, text = leadingTypes(selector, rest)
  local values = readArguments(selector, text)
  if not types then
    types = {}
    for i = 1, values.n do types[i] = "any" end
  end
  return types, values
end

define("send", "send QUERY SEL [TYPES] [ARGS]",
  "send a selector action from a component (ARGS are Lua; TYPES, e.g. {\"int\"}, types them)", function(args)
  local sender, selector, rest = parseSend(args)
  local types, values = sendArguments(selector, rest)
  -- The trace lines printed here are the send's own: .trace on stays quiet meanwhile (until
  -- the next input, if the handler raised).
  -- A send whose handler raised is traced too: its lines print, then its error.
  repl.quietTrace = true
  local sent, err = true, nil
  local entries = ck.trace(function()
    sent, err = pcall(function()
      ck.action(selector, types):withBehavior("startAtSender"):send(sender, table.unpack(values, 1, values.n))
    end)
  end)
  repl.quietTrace = false
  for _, e in ipairs(entries) do print(tostring(e)) end
  if not sent then error(err, 0) end
end)
-- A warning the tap itself gives (`[nothingTapped]`, `[notMounted]`) names the line of the
-- caller, here this prelude's: the dot command's warnings drop that "(repl):N: ".
define("tap", "tap QUERY", "tap a component's view (app:tap)", function(args)
  local before = ck.config.onWarning
  local function withoutReplLine(m)
    return before((strgsub(tostring(m), "^(%[%w+%]) %(repl%):%d+: ", "%1 ", 1)))
  end
  ck.config.onWarning = withoutReplLine
  -- Put back however the tap ends (a handler's error keeps its traceback: no pcall).
  local _ <close> = setmetatable({}, {__close = function()
    if rawequal(ck.config.onWarning, withoutReplLine) then ck.config.onWarning = before end
  end})
  local n = needApp():tap(args)
  print(n .. " action" .. (n == 1 and "" or "s") .. " sent")
end)
-- .trace on wraps the app's own ck.config.onTrace (still called), .trace off puts it back;
-- an onTrace the script set meanwhile is the script's and stays.
local tracePrinter, appTracer = nil, nil
define("trace", "trace on|off", "print every send with the responders it visited", function(args)
  local current = ck.config.onTrace
  local printing = tracePrinter ~= nil and rawequal(current, tracePrinter)
  if args == "on" then
    if printing then return end
    local kept = current
    -- The app's tracer last, by a tail call: its error's traceback shows no frame of the REPL's.
    tracePrinter = function(entry)
      if not repl.quietTrace then print("trace: " .. tostring(entry)) end
      if kept ~= nil then return kept(entry) end
    end
    appTracer = kept
    ck.config.onTrace = tracePrinter
  elseif args == "off" then
    if printing then ck.config.onTrace = appTracer end
    tracePrinter, appTracer = nil, nil
  else
    fail("usage: .trace on|off")
  end
end)
define("reload", "reload", "re-run the app file, keeping state and controllers by scope", function()
  if not appFile or appFile == "" then
    fail("no app file to reload: start the REPL on the app (ckrun app.lua, or ckrun repl app.lua)")
  end
  print(session.reload())
end)

-- The clock: while paused, timers (ck.after) fire only when .advance moves it.
-- Every reading of the clock is shown by clockText: a timer that never comes due (ck.after(math.huge),
-- or past the clock's end) has no time, and "%g" of its nil failed every .time and .advance after.
local function clockText(seconds)
  if type(seconds) ~= "number" or seconds ~= seconds or seconds == math.huge then return "never" end
  return string.format("%gs", seconds)
end

local function clockLine()
  local now, pending, nextDue, paused, kind = session.clock()
  local plural = pending == 1 and "" or "s"
  local timers = pending == 0 and "no timers pending"
    or nextDue == nil and string.format("%d timer%s pending, none ever due", pending, plural)
    or string.format("%d timer%s pending, next at %s", pending, plural, clockText(nextDue))
  local state = (paused and "paused" or "running") .. (kind == "wall" and ", wall clock" or "")
  return string.format("time %s (%s), %s", clockText(now), state, timers)
end

define("pause", "pause", "stop the clock: timers wait (the wall clock too) until .resume or .advance", function()
  session.pause()
  print(clockLine())
end)
define("resume", "resume", "start the clock again (the virtual clock runs until idle now and after each input)", function()
  session.resume()
  print(clockLine())
end)
define("advance", "advance SECONDS", "move the clock, firing the timers due on the way", function(args)
  local seconds = tonumber(args)
  if not seconds or seconds < 0 then fail("usage: .advance SECONDS (a number, e.g. .advance 0.5)") end
  local fired = session.advance(seconds)
  print(string.format("%d timer%s fired; %s", fired, fired == 1 and "" or "s", clockLine()))
end)
define("time", "time", "print the clock's time, whether it runs, and the pending timers", function()
  print(clockLine())
end)

-- `text` in lines of at most `width` columns (words kept whole where they fit), each after `indent`.
local function wrapped(text, width, indent)
  local lines, line = {}, indent
  for word in string.gmatch(text, "%S+") do
    if #line > #indent and #line + 1 + #word > width then
      lines[#lines + 1] = line
      line = indent
    end
    line = line .. (#line > #indent and " " or "") .. word
  end
  lines[#lines + 1] = line
  return table.concat(lines, "\n")
end

-- Laid out for the terminal's width ($COLUMNS, else the terminal's): a command whose help does
-- not fit beside it has its help under it.
define("help", "help", "list the commands", function()
  local width = math.max(20, session and session.columns and session.columns() or 80)
  print(wrapped("Lua: expressions print their values; =expr too; incomplete input continues on the next line.", width, ""))
  for _, name in ipairs(order) do
    local usage, help = "." .. commands[name].usage, commands[name].help
    local row = string.format("  %-30s %s", usage, help)
    if #row <= width then
      print(row)
    else
      print(wrapped(usage, width, "  "))
      print(wrapped(help, width, "      "))
    end
  end
end)
define("quit", "quit", "leave (Ctrl-D too)", function() return "quit" end)

-- Runs a dot command; returns "quit" to leave. Its own complaints start with FAIL.
function repl.dot(line)
  local name, args = strmatch(line, "^%.(%S*)%s*(.-)%s*$")
  local command = commands[name]
  if not command then fail("unknown command ." .. name .. " (.help lists them)") end
  repl.quietTrace = false
  return command.run(args)
end

return repl
