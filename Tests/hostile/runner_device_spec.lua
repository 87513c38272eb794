-- ckrun-cmd: test --timeout 2 Tests/hostile/runner_device_spec.lua /dev/zero
-- ckrun-expect-status: 64
-- ckrun-expect: /dev/zero is not a regular file
-- Outsider attack after issue 24 (B13): a FIFO or device named as (or discovered like) a spec file
-- was read outside every limit (a FIFO blocked forever, /dev/zero grew without end). Discovery takes
-- regular files only; naming anything else is a usage error.
it("never runs", function() end)
