import Foundation
@testable import ClinicCore

// The same data as ClinicCoreTests/TestSupport.swift.

/// A server filled with the clinic's usual test data.
func makeServer(latency: TimeInterval = 0.02) -> FakeClinicServer {
    let server = FakeClinicServer()
    server.latency = latency
    server.patients = [
        "p1": Patient(id: "p1", name: "Ada Lovelace", email: "ada@example.com"),
        "p2": Patient(id: "p2", name: "Alan Turing", email: nil),
        "p3": Patient(id: "p3", name: "Grace Hopper", email: "grace@example.com"),
    ]
    server.practitioners = [
        Practitioner(id: "d1", name: "Dr. Quinn", specialty: "GP"),
        Practitioner(id: "d2", name: "Dr. House", specialty: "Diagnostics"),
        Practitioner(id: "d3", name: "Dr. Brown", specialty: "GP"),
    ]
    server.slots = [
        Slot(id: 1, practitionerID: "d1", startMinute: 540, durationMinutes: 30),
        Slot(id: 2, practitionerID: "d1", startMinute: 480, durationMinutes: 30),
        Slot(id: 3, practitionerID: "d2", startMinute: 600, durationMinutes: 60),
        Slot(id: 4, practitionerID: "d3", startMinute: 420, durationMinutes: 30),
    ]
    server.prices = ["d1": 6_000, "d2": 20_000, "d3": 5_000]
    server.labResults = [
        "p1": [
            LabResult(id: "L1", patientID: "p1", test: "glucose", value: 5.4, isFinal: true),
            LabResult(id: "L2", patientID: "p1", test: "iron", value: 17.0, isFinal: false),
        ],
        "p2": [],
    ]
    return server
}

let sampleSlot = Slot(id: 1, practitionerID: "d1", startMinute: 540, durationMinutes: 30)
