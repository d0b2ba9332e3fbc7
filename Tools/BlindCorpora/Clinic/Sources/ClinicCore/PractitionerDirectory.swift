import Foundation
import Tomorrowland

/// The practitioners of the clinic, grouped and filtered off the caller's thread.
final class PractitionerDirectory {
    private let server: FakeClinicServer
    /// The queue the directory does its sorting on: a context held in a property.
    let workContext: PromiseContext

    init(server: FakeClinicServer, workContext: PromiseContext = .queue(ClinicQueues.records)) {
        self.server = server
        self.workContext = workContext
    }

    /// Practitioners of one specialty, sorted by name.
    func practitioners(specialty: String) -> Promise<[Practitioner], ClinicError> {
        server.getPractitioners()
            .map(on: workContext) { all in
                all.filter { $0.specialty == specialty }.sorted { $0.name < $1.name }
            }
    }

    /// The only practitioner of a specialty; an error when there are none.
    func practitioner(specialty: String) -> Promise<Practitioner, ClinicError> {
        practitioners(specialty: specialty)
            .flatMap(on: .immediate) { list -> Promise<Practitioner, ClinicError> in
                guard let first = list.first else {
                    return Promise(rejected: .notFound("practitioner for \(specialty)"))
                }
                return Promise(fulfilled: first)
            }
    }

    /// The names of every specialty, for the picker.
    func specialties() -> Promise<[String], ClinicError> {
        server.getPractitioners()
            .map(on: .nowOr(workContext)) { all in
                Array(Set(all.map(\.specialty))).sorted()
            }
    }
}
