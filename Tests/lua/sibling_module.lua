-- A module beside require_spec.lua, found by ckrun's searcher (SPEC §9), not by package.path.
return {name = "sibling", loadedAs = ...}
