-- A package directory beside require_spec.lua: <dir>/?/init.lua.
return {name = "sibling package"}
