#ifndef TERMINAL_RESTORE_H
#define TERMINAL_RESTORE_H

// Giving a terminal back from a signal handler. A stop from outside (SIGTSTP), SIGQUIT and a
// crash cannot wait for the program's loop to notice them: their handlers give the terminal
// back at once, with only write(2) and tcsetattr(3) (both async-signal-safe) on what was
// prepared before (the termios to put back, the bytes that undo the screen), so they allocate
// nothing and take no lock. That is why this is C: a Swift function may allocate, retain, or
// check exclusive access to a variable, none of which a signal handler may do.
#include <signal.h>
#include <stddef.h>
#include <termios.h>

enum { TERMINAL_RESTORE_CAPACITY = 128 };

/// A terminal taken over, and what giving it back takes.
typedef struct {
    /// Whose termios is changed.
    int input;
    /// Where the screen is written.
    int output;
    /// The termios to put back.
    struct termios saved;
    /// The bytes that undo the screen's modes.
    unsigned char sequence[TERMINAL_RESTORE_CAPACITY];
    size_t sequence_length;
    /// Non-zero while the terminal is taken (and so must be given back).
    volatile sig_atomic_t taken;
} terminal_restore_state;

/// A state for `input` and `output` whose giving back writes `sequence` (at most
/// TERMINAL_RESTORE_CAPACITY bytes; more are cut), not taken.
void terminal_restore_init(terminal_restore_state *state, int input, int output,
                           const unsigned char *sequence, size_t length);

/// Marks the terminal taken, `saved` being the termios to put back.
void terminal_restore_take(terminal_restore_state *state, const struct termios *saved);

/// Marks the terminal not taken, without writing anything (taking it failed).
void terminal_restore_forget(terminal_restore_state *state);

int terminal_restore_is_taken(const terminal_restore_state *state);

/// When the terminal is taken: writes the sequence, puts the saved termios back (after the
/// sequence is sent), and marks it not taken. Async-signal-safe.
void terminal_restore_give_back(terminal_restore_state *state);

/// Makes `state` the terminal the signals give back, installing their handlers on first use:
/// SIGTSTP gives it back and stops the process (SIGCONT is the caller's cue to take it again);
/// SIGQUIT, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE and SIGSEGV give it back, call the handler
/// there was before (the Swift runtime's crash report, where it is on), then take the default
/// action. A signal that was ignored stays ignored. Returns 0, or -1 when a handler could not be
/// installed.
int terminal_restore_watch(terminal_restore_state *state);

/// When `state` is the one watched: no terminal is, and the handlers there were are put back.
void terminal_restore_unwatch(terminal_restore_state *state);

#endif
