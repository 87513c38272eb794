/// Runs the files, in this process or in `--jobs` workers, handing each file's result on in
/// the run's order: sorted by path, or shuffled by the seed.
struct TestRun {
    let files: [String]
    let settings: TestRunSettings
    let jobs: Int
    var repeats = 1
    /// A file's index among all the run's test files, when `files` is a part of them (--watch).
    var places: [String: Int]? = nil

    /// Each file with its index in sorted order (sharding and shuffling key on it).
    var order: [ParallelRunner.File] {
        var order = files.enumerated().map { (path: $0.element, index: places?[$0.element] ?? $0.offset) }
        if settings.shuffleFiles, let seed = settings.seed {
            var random = SeededRandom(seed: seed)
            random.shuffle(&order)
        }
        return Array(repeatElement(order, count: repeats).joined())
    }

    /// Stops after the first file with a failure under `--fail-fast`.
    func execute(_ consume: (FileResult) -> Void) -> [FileResult] {
        var results: [FileResult] = []
        func take(_ result: FileResult) -> Bool {
            results.append(result)
            consume(result)
            return !(settings.failFast && result.didFail)
        }
        let order = order
        let workers = jobs > 1 && order.count > 1 ? DescriptorBudget.workers(min(jobs, order.count)) : 1
        if workers > 1 {
            ParallelRunner(jobs: workers, settings: settings).run(order, consume: take)
        } else {
            let states = SpecStates(settings: settings), process = ProcessSnapshot()
            for file in order {
                // Taken (and reported) before the file's state closes: see SpecFileRunner.runRecords.
                // The process is put back before the report (a test closed fd 1) and after the close.
                var goOn = true
                SpecFileRunner(file: file.path, fileIndex: file.index, settings: settings, states: states).run {
                    process.restore()
                    goOn = take($0)
                }
                process.restore()
                if !goOn { break }
            }
        }
        return results
    }
}
