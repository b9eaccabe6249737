/// A change's place in the order of changes to what is served, one type in every layer. With a
/// cluster store it is the store's: each release, switch, alias or rollout change takes the next
/// one, a replica reports the newest it serves, and its events carry it as their id. Without one,
/// a theme's generation counts its reloads, and event ids count events.
public typealias Generation = Int64
