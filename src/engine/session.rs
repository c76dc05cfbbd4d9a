//! The session: the enum over every game's engine that a protocol loop
//! matches once per command (filled in as the games land).
