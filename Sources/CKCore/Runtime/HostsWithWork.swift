/// The hosts that may have work: an update queued or a build asked for (issue 28). `ck.flush()`,
/// the sync build at the end of a runtime call and the app loop's end of turn look only here,
/// so their cost follows the hosts with work, not the hosts mounted (a flush beside 100,000
/// idle hosts scanned them all: 3 ms an update). Every tracked host with work is listed
/// (`noteWork` where work is queued, `register` for a host tracked while it has some); entries
/// whose work is done, or whose host stopped being tracked, leave at the next scan (an idle host
/// kept listed outlived the Lua value that owned its arena: Tests/soak/hosts.lua's rescues).
extension Runtime {
    func noteWork(_ host: Host) {
        guard !host.isListedWithWork, isTracking(host) else { return }
        host.isListedWithWork = true
        hostsWithWork.append(host)
    }

    /// The listed hosts, stale entries dropped first.
    func listedHostsWithWork() -> [Host] {
        var index = 0
        while index < hostsWithWork.count {
            let host = hostsWithWork[index]
            if host.mayHaveWork, !host.isDestroyed, isTracking(host) {
                index += 1
            } else {
                host.isListedWithWork = false
                hostsWithWork.swapAt(index, hostsWithWork.count - 1)
                hostsWithWork.removeLast()
            }
        }
        return hostsWithWork
    }

    /// The first made of the hosts with work that `matches`: hosts build in the order they were
    /// made, the same in every run.
    func firstHost(where matches: (Host) -> Bool) -> Host? {
        let listed = listedHostsWithWork()
        if listed.count == 1 { return matches(listed[0]) ? listed[0] : nil }
        var found: Host?
        for host in listed where matches(host) {
            if let f = found, f.serial < host.serial { continue }
            found = host
        }
        return found
    }
}

extension Host {
    /// Updates queued, a build asked for, or a sync build requested.
    var mayHaveWork: Bool { hasPendingUpdates || hasSyncUpdate }
}
