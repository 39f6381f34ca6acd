// sigaction, sigaltstack and SA_RESTART are POSIX with the XSI option.
#define _XOPEN_SOURCE 700
#include "terminal_restore.h"

#include <errno.h>
#include <poll.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

// The handlers read which terminal to give back from an atomic pointer, which C allows a signal
// handler to read only where it is lock-free.
_Static_assert(ATOMIC_POINTER_LOCK_FREE == 2, "a pointer must be lock-free for the handlers to read it");

static _Atomic(terminal_restore_state *) watched = NULL;

/// The signals that end the process and are given back before they do.
static const int ending_signals[] = { SIGQUIT, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV };
enum { ENDING_COUNT = sizeof ending_signals / sizeof ending_signals[0] };

// Written by terminal_restore_watch before any handler is installed, only read by the handlers.
static struct sigaction previous_ending[ENDING_COUNT];
static int handled_ending[ENDING_COUNT];
static struct sigaction previous_stop;
static int handled_stop;
static struct sigaction stop_action;
static int installed;

/// Where the handlers run when the stack itself has overflowed (a runaway recursion is a
/// SIGSEGV too): set for the thread that watches, unless it has one already.
static unsigned char alternate_stack[1 << 16];

void terminal_restore_init(terminal_restore_state *state, int input, int output,
                           const unsigned char *sequence, size_t length) {
    memset(state, 0, sizeof *state);
    state->input = input;
    state->output = output;
    if (length > TERMINAL_RESTORE_CAPACITY) length = TERMINAL_RESTORE_CAPACITY;
    memcpy(state->sequence, sequence, length);
    state->sequence_length = length;
}

void terminal_restore_take(terminal_restore_state *state, const struct termios *saved) {
    // The termios first: once taken, a handler may give it back at any moment.
    state->saved = *saved;
    atomic_signal_fence(memory_order_seq_cst);
    state->taken = 1;
}

void terminal_restore_forget(terminal_restore_state *state) {
    state->taken = 0;
}

int terminal_restore_is_taken(const terminal_restore_state *state) {
    return state->taken != 0;
}

/// Writes every byte, again after an interrupted or partial write; gives up when the terminal
/// takes nothing for a second (a handler must not wait for ever on a terminal nobody reads).
static void write_all(int fd, const unsigned char *bytes, size_t count) {
    while (count > 0) {
        ssize_t written = write(fd, bytes, count);
        if (written > 0) {
            bytes += written;
            count -= (size_t)written;
        } else if (written < 0 && errno == EINTR) {
            continue;
        } else if (written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            struct pollfd room = { .fd = fd, .events = POLLOUT, .revents = 0 };
            if (poll(&room, 1, 1000) <= 0) return;
        } else {
            return;
        }
    }
}

void terminal_restore_give_back(terminal_restore_state *state) {
    if (!state->taken) return;
    write_all(state->output, state->sequence, state->sequence_length);
    // TCSADRAIN: the sequence is sent before the modes change.
    while (tcsetattr(state->input, TCSADRAIN, &state->saved) != 0 && errno == EINTR) {}
    state->taken = 0;
}

static void give_back_watched(void) {
    terminal_restore_state *state = atomic_load(&watched);
    if (state != NULL) terminal_restore_give_back(state);
}

/// SIGTSTP from outside (the keyboard's Ctrl-Z is a key in raw mode): the terminal given back,
/// then the stop itself. Installed with SA_RESETHAND and SA_NODEFER, so the signal raised here
/// takes the default action at once: the process stops inside raise(3) until SIGCONT.
static void on_stop(int number) {
    int saved_errno = errno;
    give_back_watched();
    raise(number);
    // Continued: ready for the next stop. The caller's SIGCONT handler says to take the
    // terminal again.
    sigaction(number, &stop_action, NULL);
    errno = saved_errno;
}

/// Whether the signal is a fault of the instruction that was running, which happens again
/// when the handler returns: the signals that a bad address, an illegal instruction (a Swift
/// trap on x86) or an arithmetic error raise, from the kernel (si_code > 0). A breakpoint's
/// SIGTRAP is not one: on x86 it does not happen again.
static int is_fault(int number, const siginfo_t *info) {
    if (info == NULL || info->si_code <= 0) return 0;
    return number == SIGSEGV || number == SIGBUS || number == SIGILL || number == SIGFPE;
}

static void set_default(int number) {
    struct sigaction fallback;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(number, &fallback, NULL);
}

/// SIGQUIT and a crash: the terminal given back, then the handler there was before it was
/// taken called as it would have been (the Swift runtime's crash report, where it is on), then
/// the default action: the exit status and core the signal gives. The earlier handler is called
/// rather than put back and raised to because the Swift runtime's returns expecting the fault to
/// happen again, so a signal sent (kill -QUIT) would end nothing.
static void on_ending(int number, siginfo_t *info, void *context) {
    int saved_errno = errno;
    give_back_watched();
    struct sigaction previous;
    memset(&previous, 0, sizeof previous);
    previous.sa_handler = SIG_DFL;
    for (int index = 0; index < ENDING_COUNT; index++) {
        if (ending_signals[index] == number) previous = previous_ending[index];
    }
    set_default(number);
    // sa_handler and sa_sigaction share their storage: SIG_DFL and SIG_IGN read the same in both.
    if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
        if (previous.sa_flags & SA_SIGINFO) {
            previous.sa_sigaction(number, info, context);
        } else {
            previous.sa_handler(number);
        }
    }
    set_default(number);
    // A fault happens again on return, now with the default action. A signal sent (kill(1),
    // abort(3)) is sent again: blocked while this handler runs, it arrives as it returns.
    if (!is_fault(number, info)) raise(number);
    errno = saved_errno;
}

static void set_alternate_stack(void) {
    stack_t current;
    if (sigaltstack(NULL, &current) != 0 || !(current.ss_flags & SS_DISABLE)) return;
    stack_t stack;
    memset(&stack, 0, sizeof stack);
    stack.ss_sp = alternate_stack;
    stack.ss_size = sizeof alternate_stack;
    sigaltstack(&stack, NULL);
}

/// Installs `action` for `number` unless the signal is ignored; `previous` gets what there was.
static int install(int number, const struct sigaction *action, struct sigaction *previous, int *handled) {
    *handled = 0;
    if (sigaction(number, NULL, previous) != 0) return -1;
    if (previous->sa_handler == SIG_IGN) return 0;
    if (sigaction(number, action, NULL) != 0) return -1;
    *handled = 1;
    return 0;
}

int terminal_restore_watch(terminal_restore_state *state) {
    atomic_store(&watched, state);
    if (installed) return 0;
    installed = 1;
    set_alternate_stack();
    int result = 0;

    memset(&stop_action, 0, sizeof stop_action);
    stop_action.sa_handler = on_stop;
    sigemptyset(&stop_action.sa_mask);
    stop_action.sa_flags = (int)(SA_RESETHAND | SA_NODEFER | SA_RESTART);
    if (install(SIGTSTP, &stop_action, &previous_stop, &handled_stop) != 0) result = -1;

    struct sigaction ending;
    memset(&ending, 0, sizeof ending);
    ending.sa_sigaction = on_ending;
    sigemptyset(&ending.sa_mask);
    ending.sa_flags = SA_SIGINFO | SA_ONSTACK;
    for (int index = 0; index < ENDING_COUNT; index++) {
        if (install(ending_signals[index], &ending, &previous_ending[index], &handled_ending[index]) != 0) result = -1;
    }
    return result;
}

void terminal_restore_unwatch(terminal_restore_state *state) {
    terminal_restore_state *expected = state;
    if (!atomic_compare_exchange_strong(&watched, &expected, NULL)) return;
    if (!installed) return;
    if (handled_stop) sigaction(SIGTSTP, &previous_stop, NULL);
    for (int index = 0; index < ENDING_COUNT; index++) {
        if (handled_ending[index]) sigaction(ending_signals[index], &previous_ending[index], NULL);
    }
    installed = 0;
}
