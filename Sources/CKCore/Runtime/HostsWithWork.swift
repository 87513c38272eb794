/// The hosts that may have work: an update queued or a build asked for (issue 28). `ck.flush()`,
/// the sync build at the end of a runtime call and the app loop's end of turn look only here,
/// so their cost follows the hosts with work, not the hosts mounted (a flush beside 100,000
/// idle hosts scanned them all: 3 ms an update). Every tracked host with work is listed
/// (`noteWork` where work is queued, `register` for a host tracked while it has some), and only
/// tracked hosts are: a host leaves at once when it stops being tracked (`unlistWork`, from
/// `unregister`), so the list never holds a host the runtime has let go of (one kept listed
/// outlived the Lua value that owned its arena: Tests/soak/hosts.lua's rescues). A host whose
/// work is done stays listed while few are (an app's one host is not appended and removed each
/// update); past `keptIdle`, the next scan drops the idle ones.
extension Runtime {
    /// Idle hosts stay listed while no more than this many hosts are (a scan of a few costs less
    /// than listing and unlisting one each update).
    static let keptIdle = 8

    func noteWork(_ host: Host) {
        guard host.indexWithWork == nil, isTracking(host) else { return }
        host.indexWithWork = hostsWithWork.count
        hostsWithWork.append(host)
    }

    /// Takes `host` off the list in place of the last entry (O(1)).
    func unlistWork(_ host: Host) {
        guard let index = host.indexWithWork else { return }
        host.indexWithWork = nil
        let last = hostsWithWork.removeLast()
        guard last !== host else { return }
        hostsWithWork[index] = last
        last.indexWithWork = index
    }

    /// Drops the idle entries once more than `keptIdle` are listed.
    private func dropIdleHostsWithWork() {
        var index = 0
        while hostsWithWork.count > Runtime.keptIdle, index < hostsWithWork.count {
            let host = hostsWithWork[index]
            if host.mayHaveWork { index += 1 } else { unlistWork(host) }
        }
    }

    /// The listed hosts (a copy: callers may change the list as they go).
    func listedHostsWithWork() -> [Host] {
        dropIdleHostsWithWork()
        return hostsWithWork
    }

    /// The first made of the hosts with work that `matches`: hosts build in the order they were
    /// made, the same in every run. Reads the list in place (no copy to retain: a sync update asks).
    func firstHost(where matches: (Host) -> Bool) -> Host? {
        dropIdleHostsWithWork()
        var found: Host?
        for index in hostsWithWork.indices {
            let host = hostsWithWork[index]
            guard matches(host) else { continue }
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
