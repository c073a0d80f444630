// The place of an advertisement slot (SPEC §9 ad slots): an empty container named after its
// slot, taking no room until the advertisements fill it.
import './ad-slot.css';

export function AdSlot({ slot }: { slot: string }) {
  return <div className="app-ad-slot" data-ad-slot={slot} />;
}
