// The chain's simulation of what is about to be signed (desk-core's `Simulation`), in words for the confirmation.
import type { Simulation } from "../bindings/Simulation";

/** What the chain's simulation showed, as the confirmation's heading says it. */
export function simulationHeading(simulation: Simulation): string {
  switch (simulation.status) {
    case "simulated":
      return "Simulated on the chain: what leaves and enters your wallet";
    case "partial":
      return "Run on the chain read-only";
    case "unavailable":
      return "Not simulated";
    default:
      return "Not simulated yet";
  }
}
