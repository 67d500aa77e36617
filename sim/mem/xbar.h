/*
 * xbar.h - the crossbar between the SMs and the L2 slices: a request network (SM -> slice) and
 * a reply network (slice -> SM), each with per-output-port bandwidth in bytes per cycle.
 *
 * The crossbar is one clock unit of the crossbar clock domain. It owns its input links (one per
 * SM on the request network, one per slice on the reply network; consumer = the crossbar,
 * capacity xbar.input_buffer packets, latency 1 crossbar cycle); producers push into them and
 * should call link_set_producer on them so that a refused push is retried. The output links are
 * the caller's (their consumers are the L2 slices and the L1s, in their own clock domains); the
 * crossbar registers itself as their producer.
 *
 * Routing: a request goes to output r->slice, a reply to output r->sm. Packet size (bytes) is
 * header_bytes plus the data it carries (xbar_packet_bytes); an output port moves port_bytes per
 * cycle, so a packet holds its output port for ceil(bytes / port_bytes) cycles. Matching
 * (xbar.arbiter for the request network, xbar.reply_arbiter for the reply network): "age" and
 * "islip" offer each input's oldest visible packet for every output (virtual output queues) and
 * match them oldest first (age, the request network's default) or with one iSLIP iteration
 * (the reply network's default); "fifo" offers only heads. Packets of one (input, output) pair
 * keep their order whatever the matching.
 *
 * Timing (all in crossbar cycles; D is the cycle the packet is pushed into the output link):
 *
 *     D = t_pop + ser + latency_cycles,     t_pop >= c_in + 1,
 *
 * where c_in is the crossbar cycle in which the producer pushed the packet (floor(push tick /
 * crossbar period)), c_in + 1 is when it becomes visible at the input port (input link latency
 * 1), t_pop is the cycle its output port picks it (c_in + 1 when the port is free and nothing
 * else is queued), and ser = ceil(bytes / port_bytes). The consumer then sees it after the output
 * link's own latency, in its own clock: at consumer cycle
 * floor(D * xbar_period / consumer_period) + out_link_latency.
 *
 * Ownership: the crossbar owns a request from the pop at its input port to the push into the
 * output link; it never allocates or frees requests. It writes only r->stage and r->stamp[]
 * (MEM_STAGE_XBAR_REQ on the request network, MEM_STAGE_XBAR_REPLY on the reply network), and
 * reads a request only when its producer pushes it into an input link: its output (slice or SM)
 * and size are taken then, so a producer must not change them afterwards (the debug build
 * checks the size at the pop).
 */
#ifndef SIM_XBAR_H
#define SIM_XBAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cfg.h"
#include "req.h"
#include "stats.h"
#include "types.h"

struct clock;
struct clock_unit;
struct link;

/* xbar */
struct xbar_params {
	uint32_t latency_cycles;   /* pipeline latency after serialisation, crossbar cycles, >= 1 */
	uint32_t req_port_bytes;   /* bytes per cycle an output port of the request network moves */
	uint32_t reply_port_bytes; /* bytes per cycle an output port of the reply network moves */
	uint32_t header_bytes;     /* address and command bytes every packet carries */
	uint32_t input_buffer;     /* packets each input port buffers */
	uint32_t slice_port_bytes; /* bytes per cycle a slice sends into the reply network; 0: one
				    * packet a cycle whatever its size */
	uint32_t arbiter;          /* the request network's matching: XBAR_ARB_* */
	uint32_t reply_arbiter;    /* the reply network's */
};

/* How the ports are matched each cycle: "fifo": an input offers only its head packet, each free
 * output picks round-robin among the heads that want it (head-of-line blocking); "islip": an
 * input offers its oldest visible packet for each output (virtual output queues in its buffer),
 * and one iteration of iSLIP matches them (request, grant round-robin at the output, accept
 * round-robin at the input; pointers move only on an accept); "age": the same offers, matched
 * oldest first (each output grants the offered packet that has waited longest at its input,
 * ties round-robin; each input accepts the grant of its oldest packet). */
enum xbar_arbiter { XBAR_ARB_FIFO, XBAR_ARB_ISLIP, XBAR_ARB_AGE };
extern const char *const xbar_arbiter_names[];

extern const struct cfg_field xbar_fields[];
extern const size_t xbar_nfields;
#define XBAR_NFIELDS 8 /* entries of xbar_fields[] (checked in the .c) */

enum xbar_net { XBAR_NET_REQ, XBAR_NET_REPLY, XBAR_NET_COUNT };

/* Counters of one port. Input ports use packets, bytes and stall_busy; output ports packets,
 * bytes, busy_cycles and stall_full. */
struct xbar_port_stats {
	uint64_t packets;     /* packets through the port */
	uint64_t bytes;       /* their bytes, headers included */
	uint64_t busy_cycles; /* output: cycles spent serialising packets */
	uint64_t stall_busy;  /* input: cycles its visible head waited for its output port */
	uint64_t stall_full;  /* output: cycles a due packet waited for room in the output link */
};

struct xbar;

/* Bytes of r's packet on the request (reply = false) or reply network:
 *   request: header + (STORE, ATOMIC, WRITEBACK: bytes written = popcount of the byte mask, or
 *            r->bytes when the mask is empty; LOAD: 0)
 *   reply:   header + (LOAD, ATOMIC: 32 x sectors in r->sector_mask; STORE, WRITEBACK: 0) */
uint32_t xbar_packet_bytes(const struct xbar_params *p, const struct mem_req *r, bool reply);
/* Cycles a packet of bytes holds an output port moving port_bytes per cycle: ceil, at least 1. */
uint32_t xbar_serial_cycles(uint32_t bytes, uint32_t port_bytes);
/* Crossbar cycles from the push into an input port to the push into the output link, unloaded:
 * 1 (input link) + serialisation + latency_cycles. For the derived figures of config check. */
uint32_t xbar_unloaded_cycles(const struct xbar_params *p, uint32_t bytes, bool reply);

/* Creates the crossbar between nsm SMs and nslices L2 slices (both >= 1) as a unit of clock clk
 * (the crossbar domain), with its input links. p must outlive it. Registers statistics under
 * prefix (e.g. "xbar") in st; st may be NULL (no statistics). prefix also names the links.
 * Never NULL. */
struct xbar *xbar_create(const struct xbar_params *p, uint32_t nsm, uint32_t nslices,
			 struct clock *clk, struct stats *st, const char *prefix);
/* Frees the crossbar and its input links. Requests still inside are not freed (the pool is). */
void xbar_destroy(struct xbar *x);

/* The input link of SM sm on the request network (owned by the crossbar). */
struct link *xbar_req_in(struct xbar *x, uint32_t sm);
/* The input link of slice slice on the reply network (owned by the crossbar). */
struct link *xbar_reply_in(struct xbar *x, uint32_t slice);
/* Sets the link into L2 slice slice (owned by the caller, must outlive the crossbar); the
 * crossbar becomes its producer. Every output must be set before a packet is routed to it. */
void xbar_set_req_out(struct xbar *x, uint32_t slice, struct link *l);
/* Sets the link into SM sm's L1 (owned by the caller); as xbar_set_req_out. */
void xbar_set_reply_out(struct xbar *x, uint32_t sm, struct link *l);

struct clock_unit *xbar_unit(struct xbar *x);
/* Packets inside the crossbar: in its input links, or popped and not yet delivered. */
uint64_t xbar_pending(const struct xbar *x);
/* Statistics of input / output port i of network n (for tests and reports). */
const struct xbar_port_stats *xbar_in_stats(const struct xbar *x, enum xbar_net n, uint32_t i);
const struct xbar_port_stats *xbar_out_stats(const struct xbar *x, enum xbar_net n, uint32_t o);
/* Totals of network n over its ports (input-side stall_busy, output-side the rest). */
const struct xbar_port_stats *xbar_net_stats(const struct xbar *x, enum xbar_net n);

/* Ports with work: busy-until cycle, pipeline occupancy and head, stalls, input link state. */
void xbar_dump(const struct xbar *x, FILE *out);
/* Invariants, SIM_ASSERT: packets popped = delivered + in the pipelines; pipelines ordered by
 * ready cycle and within their bound; every queued packet routes to its port. */
void xbar_check(const struct xbar *x);

#endif /* SIM_XBAR_H */
