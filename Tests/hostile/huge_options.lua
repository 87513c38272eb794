-- ckrun-args: --memory-limit 8796093022208 --timeout 1e300
-- ckrun-expect: ran
print("ran")
