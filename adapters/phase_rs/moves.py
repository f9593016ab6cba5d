"""The move the phase.rs driver makes most (a priority pass) and how many
it makes before it gives up on reaching a point of the game."""

#: Passing priority, in the engine's tagged move shape.
PASS = {"type": "PassPriority"}
#: More default answers than this without reaching the wanted point means
#: the engine is looping; the driver gives up with a DriverError.
MAX_MOVES = 2000
