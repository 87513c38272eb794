-- ckrun-args: --timeout inf
-- ckrun-expect: ran
print("ran")
