/*
 * xbar.c - the SM <-> L2 crossbar (contract in xbar.h).
 *
 * Models two independent single-stage crossbars (request: SMs -> slices; reply: slices -> SMs).
 * Each input port is a FIFO link (input_buffer packets); each output port moves port_bytes per
 * cycle, so a packet of b bytes holds it for ceil(b / port_bytes) cycles, and then spends
 * latency_cycles in a pipeline before it is pushed into the output link. Packet size is real:
 * an 8 B read request holds a port for one cycle, a 136 B four-sector reply for five (GPGPU-Sim's
 * local crossbar moves one packet per port per cycle whatever its size).
 *
 * One cycle (xbar_tick), for each network, visiting only the inputs whose link may hold packets
 * and the outputs whose pipeline does (bitmaps: a push sets an input's bit, link_set_watch; a
 * port's bit is cleared when it is found empty), in index order, so that a cycle with one packet
 * costs as much with 576 ports as with 2:
 *   1. deliver: each output's pipeline pushes, in order, every packet whose ready cycle has come
 *      while its output link has room (link_try_push: a refusal makes the link wake us on its
 *      next pop); a refused packet stalls the port's deliveries (stall_full counts the cycles);
 *   2. arbitrate: each output port that is free (not serialising) and whose pipeline has room
 *      picks one packet; the winner is popped, stamped, and holds the port for ser cycles; it
 *      is due at t + ser + latency_cycles. An input pops at most one packet per cycle; with
 *      slice_port_bytes, a reply input (an L2 slice) then sends its data for
 *      ceil(data / slice_port_bytes) cycles before its next pop (the header travels beside
 *      the data). Which packets are offered (xbar.arbiter for the request network,
 *      xbar.reply_arbiter for the reply network):
 *        fifo:  only each input's visible head (link_peek); each free output picks,
 *               round-robin from the input after its last winner, among the heads that
 *               target it. A head whose output is busy blocks everything behind it
 *               (head-of-line blocking: a port saturates near 2 - sqrt 2 = 59% under uniform
 *               traffic, whatever the buffer depth);
 *        islip: virtual output queues: each input offers, for every output, its oldest
 *               visible packet for that output (a later packet for the same output waits,
 *               so per-pair order is kept; the offers are kept from cycle to cycle and
 *               updated by the input's pushes and pops, in_offers), and one iSLIP iteration
 *               (McKeown 1999) matches them: each free output grants the requesting input
 *               next from its round-robin pointer, each input accepts the granting output next
 *               from its own pointer and pops that packet (link_pop_at); both pointers move
 *               past an accepted match only. A grant that is not accepted is lost for the cycle.
 *               Accel-Sim's tested configs use iSLIP (-icnt_arbiter_algo 1, or BookSim's
 *               islip allocators; the reply network's default);
 *        age:   the same offers, matched oldest first (the request network's default): each
 *               free output grants the offered packet that became visible at its input
 *               earliest (ties: the round-robin order above), each granted input accepts the
 *               grant of its oldest packet (nearest its head). Round-robin serves each input in
 *               turn however long its packets have waited, so on a congested slice the SMs
 *               with the most traffic for it wait longest, and over a long stream their warps
 *               drift apart (doc/hierarchy.md); oldest-first keeps a slice's intake in about
 *               the order the requests were made, as age-based allocators do;
 *   3. sleep until the next cycle anything can happen: a pipeline head due, a busy port freeing
 *      for a waiting head, an input head becoming visible (links wake us on push as well), or
 *      the next cycle when a waiting head lost arbitration. A refused delivery waits for the
 *      output link's pop, which wakes us. Nothing pending: plain sleep. The search stops at
 *      the first input or output, of either network, that asks for the next cycle.
 *
 * Output port state:
 *
 *          arbitrate: pop winner                  cycle busy_until reached
 *   FREE ------------------------------> SERIALISING ----------------------> FREE
 *    |   (pipeline full: no pick)
 *    +-- while the pipeline holds latency_cycles + 1 packets (a refused delivery backs it up)
 *
 *   FREE        -> SERIALISING [xbar_arbitrate]  busy_until = now + ser
 *   SERIALISING -> FREE        [time]            now >= busy_until
 *   a pipeline head: IN_FLIGHT -> DUE [time: ready <= now] -> DELIVERED [xbar_deliver], or
 *   DUE -> BLOCKED [xbar_deliver: link full] -> DELIVERED [xbar_deliver after a pop woke us]
 *
 * Pipeline bound: a port pops at most one packet per cycle and each stays ser + latency cycles,
 * so latency_cycles + 1 slots hold every packet of a port that is never refused; only a stalled
 * delivery fills them, and then the port stops picking (backpressure reaches the inputs and,
 * through their links, the producers). After a stall, every due packet that fits is delivered in
 * the same cycle (its port bandwidth was spent at serialisation).
 *
 * Statistics (per port; totals per network): packets and bytes in and out, output busy cycles,
 * stall_busy = cycles an input's head was visible but not popped (its port busy, another input
 * won, or its pipeline full), stall_full = cycles a due packet waited for a full output link,
 * and queue_delay = cycles from visible at the input link (its ready cycle) to popped, including
 * the wait behind older packets of the same input. Stall cycles are added when the wait ends, so
 * a wait still in progress is not yet counted (it shows in xbar_dump).
 *
 * Stamps: a request enters its network (MEM_STAGE_XBAR_REQ / _REPLY) at the tick it became
 * visible at the input port, so input queueing counts as crossbar time in the stage breakdown.
 *
 * Invariants (xbar_check): per network, popped == delivered + packets in the pipelines; each
 * pipeline holds at most latency_cycles + 1 packets, ready cycles non-decreasing, each packet
 * routing to its port; the round-robin pointers are valid ports; no arbitration scratch is left
 * set between cycles.
 *
 * Not modelled: multi-stage topologies and virtual channels, credit-return latency (a slot frees
 * when its consumer pops), more than one iSLIP iteration per cycle, separate buffers per virtual
 * output queue (an input's packets share its input_buffer slots), internal speedup, flit-level
 * wormhole interleaving, packet loss or errors.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "bits.h"
#include "clock.h"
#include "link.h"
#include "log.h"
#include "xbar.h"

#define SECTOR_BYTES 32
#define NO_INPUT UINT32_MAX
/* queue_delay histogram: cycles 0..1023 in 1-cycle bins; longer waits land in the overflow. */
#define QDELAY_HI 1024
#define QDELAY_BINS 1024

#define P struct xbar_params
const struct cfg_field xbar_fields[] = {
	CFG_U32_FIELD(P, latency_cycles, 1, 4096, "8",
		      "pipeline latency after a packet's serialisation, crossbar cycles"),
	CFG_U32_FIELD(P, req_port_bytes, 1, 4096, "32",
		      "bytes per crossbar cycle an output port (into an L2 slice) of the request "
		      "network moves"),
	CFG_U32_FIELD(P, reply_port_bytes, 1, 4096, "32",
		      "bytes per crossbar cycle an output port (into an SM) of the reply network "
		      "moves; a 32 B sector per cycle"),
	CFG_U32_FIELD(P, header_bytes, 0, 4096, "8",
		      "bytes of address and command in every packet"),
	CFG_U32_FIELD(P, input_buffer, 1, 65536, "8", "packets each input port buffers"),
	CFG_U32_FIELD(P, slice_port_bytes, 0, 4096, "0",
		      "bytes per crossbar cycle an L2 slice sends into the reply network (its data "
		      "return: V100 2048 B/clk over 64 slices = 32, A100 5120 over 80 = 64): a "
		      "reply carrying d data bytes keeps the slice's input from its next pop "
		      "ceil(d / this) cycles (at least one); 0: an input pops one packet a cycle "
		      "whatever its size"),
	CFG_ENUM_FIELD(P, arbiter, xbar_arbiter_names, "\"age\"",
		       "how the request network (SMs to slices) matches inputs and outputs each "
		       "cycle: \"age\" (virtual output queues: an input offers its oldest visible "
		       "packet for each output; each free output grants the offered packet that has "
		       "waited longest at its input, ties round-robin, and each input accepts the "
		       "grant of its oldest packet: a slice takes requests in about the order they "
		       "were made, whatever the SM; an assumption, doc/hierarchy.md), \"islip\" (the "
		       "same offers, one iSLIP iteration: each free output grants the requesting "
		       "input next in its round-robin order, each input accepts the granting output "
		       "next in its own; pointers move on an accept; as Accel-Sim's tested configs, "
		       "-icnt_arbiter_algo 1) or \"fifo\" (an input offers only its head packet: a "
		       "head whose output is busy blocks the packets behind it, and a port saturates "
		       "near 59% under uniform traffic)"),
	CFG_ENUM_FIELD(P, reply_arbiter, xbar_arbiter_names, "\"islip\"",
		       "how the reply network (slices to SMs) matches: the same choices as "
		       "xbar.arbiter"),
};
#undef P
const size_t xbar_nfields = sizeof xbar_fields / sizeof xbar_fields[0];
_Static_assert(sizeof xbar_fields / sizeof xbar_fields[0] == XBAR_NFIELDS,
	       "XBAR_NFIELDS must count xbar_fields");

const char *const xbar_arbiter_names[] = { "fifo", "islip", "age", NULL };

static const char *const net_names[XBAR_NET_COUNT] = { "req", "reply" };

/* ---------------------------------------------------------------------------------------------
 * State
 */

struct xbar_slot {
	struct mem_req *r;
	cycle_t ready; /* crossbar cycle it is pushed into the output link */
};

struct xbar_in {
	struct link *l;       /* owned */
	cycle_t last_pop;     /* cycle of its last pop, CYCLE_NEVER before the first */
	cycle_t busy_until;   /* sending until (excluding) this cycle (in_bytes) */
	uint32_t arr;         /* islip: the output this input accepts first next */
	cycle_t retry_at;     /* islip: none of its packets can be picked before this cycle... */
	uint32_t scan_occ;    /* ...while its link holds this many (a push or pop: look again) */
	uint32_t acc;         /* islip scratch: accepted output, NO_INPUT */
	uint32_t acc_dist;    /* its distance from arr (age: its packet's place in the buffer) */
	uint32_t nvis;        /* its visible packets, at most offer of them, head first: */
	uint32_t *keys;       /*   their keys (make_key: output and data bytes) */
	cycle_t *ready;       /*   the cycles they became visible */
	uint32_t noff;        /* its offers: the oldest visible packet for each output, in order: */
	uint32_t *okey;       /*   their outputs */
	uint32_t *ok;         /*   their places behind the head */
	uint64_t *obits;      /*   bit o: output o is offered */
	struct xbar_port_stats st;
};

struct xbar_out {
	struct link *l;       /* the caller's */
	cycle_t busy_until;   /* serialising until (excluding) this cycle */
	cycle_t full_since;   /* a due packet was refused since this cycle; CYCLE_NEVER: not */
	uint32_t rr;          /* the input that has priority next */
	uint32_t head, count; /* the pipeline: a ring of pipe_cap slots */
	struct xbar_slot *slots;
	uint32_t win;         /* arbitration scratch: winning input, NO_INPUT */
	uint32_t win_dist;    /* its round-robin distance from rr */
	uint32_t win_k;       /* islip: the winner's packet, places behind its input's head */
	cycle_t win_age;      /* age: the cycle the winner's packet became visible */
	struct xbar_port_stats st;
};

struct xbar_network {
	enum xbar_net id;
	uint32_t nin, nout;
	uint32_t port_bytes;
	uint32_t in_bytes;    /* bytes an input sends per cycle; 0: one packet a cycle */
	enum mem_stage stage;
	struct xbar_in *in;
	struct xbar_out *out;
	uint32_t *touched;    /* outputs with a winner this cycle (scratch, nout) */
	uint32_t *granted;    /* islip: inputs with a grant this cycle (scratch, nin) */
	uint32_t *keys;       /* the inputs' visible packets' outputs, offer per input (xbar_in) */
	cycle_t *ready;       /* and the cycles they became visible (xbar_in.ready) */
	uint32_t *okey, *ok;  /* the inputs' offers, offer per input (xbar_in.okey, .ok) */
	uint64_t *obits;      /* and (nout + 63) / 64 words per input (xbar_in.obits) */
	uint64_t *in_busy;    /* bit i: input i's link may hold packets (link_set_watch) */
	uint64_t *out_busy;   /* bit o: output o's pipeline holds packets */
	uint32_t arbiter;     /* XBAR_ARB_*: xbar.arbiter or xbar.reply_arbiter */
	uint32_t offer;       /* packets an input offers: its buffer (islip, age), its head (fifo) */
	uint64_t popped, delivered; /* for xbar_check; never reset */
	struct xbar_port_stats tot;
	struct stats_dist *qdelay;
};

struct xbar {
	struct xbar_params p;
	struct clock *clk;
	struct clock_unit *unit;
	uint32_t pipe_cap;    /* latency_cycles + 1 */
	struct xbar_slot *slot_mem;
	struct xbar_network net[XBAR_NET_COUNT];
};

static void xbar_tick(void *unit, cycle_t now);

/* ---------------------------------------------------------------------------------------------
 * Packet size
 */

static uint32_t bytes_written(const struct mem_req *r)
{
	uint32_t n = (uint32_t)(bits_pop64(r->byte_mask[0]) +
				bits_pop64(r->byte_mask[1]));

	return n != 0 ? n : r->bytes;
}

/* The data a packet carries besides its header: a store's or atomic's written bytes on the
 * request network, a load's or atomic's sectors on the reply network. */
static uint32_t packet_data(const struct mem_req *r, bool reply)
{
	if (!reply)
		return r->type != MEM_REQ_LOAD ? bytes_written(r) : 0;
	if (r->type == MEM_REQ_LOAD || r->type == MEM_REQ_ATOMIC)
		return SECTOR_BYTES * bits_pop32(r->sector_mask);
	return 0;
}

uint32_t xbar_packet_bytes(const struct xbar_params *p, const struct mem_req *r, bool reply)
{
	return p->header_bytes + packet_data(r, reply);
}

uint32_t xbar_serial_cycles(uint32_t bytes, uint32_t port_bytes)
{
	uint32_t n;

	SIM_ASSERT(port_bytes >= 1);
	n = bytes / port_bytes + (bytes % port_bytes != 0);
	return n != 0 ? n : 1; /* an empty packet still takes a cycle of the port */
}

uint32_t xbar_unloaded_cycles(const struct xbar_params *p, uint32_t bytes, bool reply)
{
	uint32_t port = reply ? p->reply_port_bytes : p->req_port_bytes;

	return 1 + xbar_serial_cycles(bytes, port) + p->latency_cycles;
}

/* ---------------------------------------------------------------------------------------------
 * Creation
 */

static void register_port(struct stats *st, const char *prefix, const char *net, const char *dir,
			  uint32_t i, struct xbar_port_stats *ps, bool is_in)
{
#define C(f, d) STATS_COUNTER_DEF(struct xbar_port_stats, f, d)
	static const struct stats_counter_def in_defs[] = {
		C(packets, "packets popped from this input port"),
		C(bytes, "bytes of those packets, headers included"),
		C(stall_busy, "cycles this input's visible head waited for its output port"),
	};
	static const struct stats_counter_def out_defs[] = {
		C(packets, "packets delivered by this output port"),
		C(bytes, "bytes of those packets, headers included"),
		C(busy_cycles, "cycles this output port spent serialising packets"),
		C(stall_full, "cycles a due packet waited for room in this port's output link"),
	};
#undef C
	char *name = i == UINT32_MAX ? xasprintf("%s.%s", prefix, net)
				     : xasprintf("%s.%s.%s%u", prefix, net, dir, i);

	if (is_in)
		stats_counters(st, name, ps, in_defs, sizeof in_defs / sizeof in_defs[0]);
	else
		stats_counters(st, name, ps, out_defs, sizeof out_defs / sizeof out_defs[0]);
	free(name);
}

static void register_net(struct xbar_network *n, struct stats *st, const char *prefix)
{
#define C(f, d) STATS_COUNTER_DEF(struct xbar_port_stats, f, d)
	static const struct stats_counter_def tot_defs[] = {
		C(packets, "packets delivered by the network"),
		C(bytes, "bytes delivered, headers included"),
		C(busy_cycles, "output-port cycles spent serialising, summed over ports"),
		C(stall_busy, "input-port cycles a visible head waited for its output, summed"),
		C(stall_full, "output-port cycles a due packet waited for a full output link, "
			      "summed"),
	};
#undef C
	const char *net = net_names[n->id];
	char *name;
	uint32_t i;

	name = xasprintf("%s.%s", prefix, net);
	stats_counters(st, name, &n->tot, tot_defs, sizeof tot_defs / sizeof tot_defs[0]);
	free(name);
	name = xasprintf("%s.%s.queue_delay", prefix, net);
	n->qdelay = stats_dist(st, name, "crossbar cycles from visible at the input port to "
			       "picked by the output port", 0, QDELAY_HI, QDELAY_BINS);
	free(name);
	for (i = 0; i < n->nin; i++)
		register_port(st, prefix, net, "in", i, &n->in[i].st, true);
	for (i = 0; i < n->nout; i++)
		register_port(st, prefix, net, "out", i, &n->out[i].st, false);
}

/* A packet's key, kept beside it in its input link (link_set_key): computed when it is pushed,
 * while its producer has the request in the host's cache, so that the arbitration and the pop
 * never read the request (on the naive transpose the pop's first read of it was a fifth of the
 * crossbar's CPU samples). Its output port in the low KEY_PORT_BITS (ports: at most 1,024 SMs
 * and 65,536 slices) and its data bytes (packet_data) above them. */
#define KEY_PORT_BITS 16
#define KEY_PORT_MASK ((UINT32_C(1) << KEY_PORT_BITS) - 1)

static uint32_t make_key(uint32_t port, uint32_t data)
{
	SIM_ASSERT(port <= KEY_PORT_MASK && data <= UINT32_MAX >> KEY_PORT_BITS);
	return port | data << KEY_PORT_BITS;
}

static inline uint32_t key_port(uint32_t key)
{
	return key & KEY_PORT_MASK;
}

static inline uint32_t key_data(uint32_t key)
{
	return key >> KEY_PORT_BITS;
}

static uint32_t key_slice(const void *item)
{
	const struct mem_req *r = item;

	return make_key(r->slice, packet_data(r, false));
}

static uint32_t key_sm(const void *item)
{
	const struct mem_req *r = item;

	return make_key(r->sm, packet_data(r, true));
}

static void net_init(struct xbar *x, struct xbar_network *n, enum xbar_net id, uint32_t nin,
		     uint32_t nout, struct xbar_slot **slots, const char *prefix)
{
	uint32_t i;

	n->id = id;
	n->nin = nin;
	n->nout = nout;
	n->port_bytes = id == XBAR_NET_REQ ? x->p.req_port_bytes : x->p.reply_port_bytes;
	n->in_bytes = id == XBAR_NET_REPLY ? x->p.slice_port_bytes : 0;
	n->stage = id == XBAR_NET_REQ ? MEM_STAGE_XBAR_REQ : MEM_STAGE_XBAR_REPLY;
	n->arbiter = id == XBAR_NET_REQ ? x->p.arbiter : x->p.reply_arbiter;
	n->offer = n->arbiter == XBAR_ARB_FIFO ? 1 : x->p.input_buffer;
	n->in = xcalloc(nin, sizeof *n->in);
	n->out = xcalloc(nout, sizeof *n->out);
	n->touched = xcalloc(nout, sizeof *n->touched);
	n->granted = xcalloc(nin, sizeof *n->granted);
	n->keys = xcalloc((size_t)nin * n->offer, sizeof *n->keys);
	n->ready = xcalloc((size_t)nin * n->offer, sizeof *n->ready);
	n->okey = xcalloc((size_t)nin * n->offer, sizeof *n->okey);
	n->ok = xcalloc((size_t)nin * n->offer, sizeof *n->ok);
	n->obits = xcalloc((size_t)nin * ((nout + 63) / 64), sizeof *n->obits);
	n->in_busy = xcalloc((nin + 63) / 64, sizeof *n->in_busy);
	n->out_busy = xcalloc((nout + 63) / 64, sizeof *n->out_busy);
	for (i = 0; i < nin; i++) {
		char *name = xasprintf("%s.%s.in%u", prefix, net_names[id], i);

		n->in[i].l = link_create(name, x->p.input_buffer, 1, x->clk, x->unit);
		link_set_watch(n->in[i].l, n->in_busy, i);
		link_set_key(n->in[i].l, id == XBAR_NET_REQ ? key_slice : key_sm);
		n->in[i].last_pop = CYCLE_NEVER;
		n->in[i].acc = NO_INPUT;
		n->in[i].keys = n->keys + (size_t)i * n->offer;
		n->in[i].ready = n->ready + (size_t)i * n->offer;
		n->in[i].okey = n->okey + (size_t)i * n->offer;
		n->in[i].ok = n->ok + (size_t)i * n->offer;
		n->in[i].obits = n->obits + (size_t)i * ((nout + 63) / 64);
		free(name);
	}
	for (i = 0; i < nout; i++) {
		n->out[i].full_since = CYCLE_NEVER;
		n->out[i].win = NO_INPUT;
		n->out[i].slots = *slots;
		*slots += x->pipe_cap;
	}
}

struct xbar *xbar_create(const struct xbar_params *p, uint32_t nsm, uint32_t nslices,
			 struct clock *clk, struct stats *st, const char *prefix)
{
	struct xbar *x;
	struct xbar_slot *slots;
	int k;

	SIM_ASSERT(p != NULL && clk != NULL && prefix != NULL);
	SIM_ASSERT(nsm >= 1 && nslices >= 1);
	SIM_ASSERT(p->latency_cycles >= 1 && p->input_buffer >= 1);
	SIM_ASSERT(p->req_port_bytes >= 1 && p->reply_port_bytes >= 1);
	x = xcalloc(1, sizeof *x);
	x->p = *p;
	x->clk = clk;
	x->unit = clock_attach(clk, prefix, xbar_tick, x);
	x->pipe_cap = p->latency_cycles + 1;
	x->slot_mem = xcalloc((size_t)(nslices + nsm) * x->pipe_cap, sizeof *x->slot_mem);
	slots = x->slot_mem;
	net_init(x, &x->net[XBAR_NET_REQ], XBAR_NET_REQ, nsm, nslices, &slots, prefix);
	net_init(x, &x->net[XBAR_NET_REPLY], XBAR_NET_REPLY, nslices, nsm, &slots, prefix);
	if (st != NULL)
		for (k = 0; k < XBAR_NET_COUNT; k++)
			register_net(&x->net[k], st, prefix);
	return x;
}

void xbar_destroy(struct xbar *x)
{
	int k;
	uint32_t i;

	if (x == NULL)
		return;
	for (k = 0; k < XBAR_NET_COUNT; k++) {
		struct xbar_network *n = &x->net[k];

		for (i = 0; i < n->nin; i++)
			link_destroy(n->in[i].l);
		free(n->in);
		free(n->out);
		free(n->touched);
		free(n->granted);
		free(n->keys);
		free(n->ready);
		free(n->okey);
		free(n->ok);
		free(n->obits);
		free(n->in_busy);
		free(n->out_busy);
	}
	free(x->slot_mem);
	free(x);
}

struct link *xbar_req_in(struct xbar *x, uint32_t sm)
{
	SIM_ASSERT(sm < x->net[XBAR_NET_REQ].nin);
	return x->net[XBAR_NET_REQ].in[sm].l;
}

struct link *xbar_reply_in(struct xbar *x, uint32_t slice)
{
	SIM_ASSERT(slice < x->net[XBAR_NET_REPLY].nin);
	return x->net[XBAR_NET_REPLY].in[slice].l;
}

static void set_out(struct xbar *x, enum xbar_net id, uint32_t o, struct link *l)
{
	struct xbar_network *n = &x->net[id];

	SIM_ASSERT(o < n->nout && l != NULL);
	n->out[o].l = l;
	link_set_producer(l, x->unit);
}

void xbar_set_req_out(struct xbar *x, uint32_t slice, struct link *l)
{
	set_out(x, XBAR_NET_REQ, slice, l);
}

void xbar_set_reply_out(struct xbar *x, uint32_t sm, struct link *l)
{
	set_out(x, XBAR_NET_REPLY, sm, l);
}

struct clock_unit *xbar_unit(struct xbar *x)
{
	return x->unit;
}

uint64_t xbar_pending(const struct xbar *x)
{
	uint64_t n = 0;
	uint32_t i;
	int k;

	for (k = 0; k < XBAR_NET_COUNT; k++) {
		const struct xbar_network *net = &x->net[k];

		for (i = 0; i < net->nin; i++)
			n += link_occupancy(net->in[i].l);
		n += net->popped - net->delivered;
	}
	return n;
}

const struct xbar_port_stats *xbar_in_stats(const struct xbar *x, enum xbar_net n, uint32_t i)
{
	SIM_ASSERT(n < XBAR_NET_COUNT && i < x->net[n].nin);
	return &x->net[n].in[i].st;
}

const struct xbar_port_stats *xbar_out_stats(const struct xbar *x, enum xbar_net n, uint32_t o)
{
	SIM_ASSERT(n < XBAR_NET_COUNT && o < x->net[n].nout);
	return &x->net[n].out[o].st;
}

const struct xbar_port_stats *xbar_net_stats(const struct xbar *x, enum xbar_net n)
{
	SIM_ASSERT(n < XBAR_NET_COUNT);
	return &x->net[n].tot;
}

/* ---------------------------------------------------------------------------------------------
 * One cycle
 */

static uint32_t route(const struct xbar_network *n, const struct mem_req *r)
{
	uint32_t o = n->id == XBAR_NET_REQ ? r->slice : r->sm;

	SIM_ASSERT(o < n->nout);
	return o;
}

static inline struct xbar_slot *pipe_slot(const struct xbar *x, const struct xbar_out *o,
					  uint32_t i)
{
	uint32_t k = o->head + i;

	if (k >= x->pipe_cap)
		k -= x->pipe_cap;
	return &o->slots[k];
}

/* Step 1: push every due packet that fits; a refusal stalls the port's deliveries. */
static void xbar_deliver(struct xbar *x, struct xbar_network *n, cycle_t now)
{
	uint32_t w, i;

	for (w = 0; w < (n->nout + 63) / 64; w++)
	for (uint64_t bits = n->out_busy[w]; bits != 0; bits &= bits - 1) {
		struct xbar_out *o;

		i = w * 64 + (uint32_t)__builtin_ctzll(bits);
		o = &n->out[i];
		while (o->count > 0) {
			struct xbar_slot *s = &o->slots[o->head];

			if (s->ready > now)
				break;
			SIM_ASSERT(o->l != NULL);
			if (!link_try_push(o->l, s->r)) {
				if (o->full_since == CYCLE_NEVER)
					o->full_since = now;
				break;
			}
			if (o->full_since != CYCLE_NEVER) {
				o->st.stall_full += now - o->full_since;
				n->tot.stall_full += now - o->full_since;
				o->full_since = CYCLE_NEVER;
			}
			s->r = NULL;
			if (++o->head == x->pipe_cap)
				o->head = 0;
			o->count--;
			n->delivered++;
		}
		if (o->count == 0)
			n->out_busy[w] &= ~(1ull << (i % 64));
	}
}

/* How far port i is from round-robin pointer p among n ports (0: p itself). */
static inline uint32_t rr_dist(uint32_t i, uint32_t p, uint32_t n)
{
	return i >= p ? i - p : i + n - p;
}

static bool out_can_pick(const struct xbar *x, const struct xbar_out *o, cycle_t now)
{
	return o->busy_until <= now && o->count < x->pipe_cap;
}

/* Appends visible packet k of input in to its offers if it is the oldest for its output (a
 * later packet for the same output waits behind it). */
static void offer_add(struct xbar_in *in, uint32_t k)
{
	uint32_t oi = key_port(in->keys[k]);
	uint64_t bit = 1ull << (oi % 64);

	if (in->obits[oi / 64] & bit)
		return;
	in->obits[oi / 64] |= bit;
	in->okey[in->noff] = oi;
	in->ok[in->noff++] = k;
}

/* Input in's visible packet k, one of its offers, is popped: the others move up a place, and its
 * output's next visible packet, if any, becomes the offer for it (in place order). */
static void offer_pop(struct xbar_in *in, uint32_t k)
{
	uint32_t j, jp, oi, k2;

	memmove(in->keys + k, in->keys + k + 1, (in->nvis - k - 1) * sizeof *in->keys);
	memmove(in->ready + k, in->ready + k + 1, (in->nvis - k - 1) * sizeof *in->ready);
	in->nvis--;
	for (jp = 0; in->ok[jp] != k; jp++)
		SIM_ASSERT(jp + 1 < in->noff);
	oi = in->okey[jp];
	for (j = jp; j + 1 < in->noff; j++) {
		in->okey[j] = in->okey[j + 1];
		in->ok[j] = in->ok[j + 1] - 1;
	}
	in->noff--;
	for (k2 = k; k2 < in->nvis && key_port(in->keys[k2]) != oi; k2++)
		;
	if (k2 == in->nvis) {
		in->obits[oi / 64] &= ~(1ull << (oi % 64));
		return;
	}
	for (j = jp; j < in->noff && in->ok[j] < k2; j++)
		;
	memmove(in->okey + j + 1, in->okey + j, (in->noff - j) * sizeof *in->okey);
	memmove(in->ok + j + 1, in->ok + j, (in->noff - j) * sizeof *in->ok);
	in->okey[j] = oi;
	in->ok[j] = k2;
	in->noff++;
}

/* Input in's visible packets and offers at cycle now (in->keys, ready, okey, ok; returns
 * in->noff), kept from cycle to cycle since xbar_arbitrate and xbar_next look at them every
 * cycle: while nothing is popped, packets only join them at the tail (a push, or a packet
 * behind them becoming visible), and xbar_pop updates them. */
static uint32_t in_offers(const struct xbar_network *n, struct xbar_in *in, cycle_t now)
{
	uint32_t occ = link_occupancy(in->l), k;

	if (in->nvis < occ && in->nvis < n->offer) {
		k = in->nvis;
		in->nvis = link_keys_visible(in->l, now, k, in->keys, in->ready, n->offer);
		for (; k < in->nvis; k++)
			offer_add(in, k);
	}
#ifdef SIM_DEBUG
	for (k = 0; k < in->nvis; k++) {
		const struct mem_req *r = link_peek_at(in->l, k);

		SIM_ASSERT(r != NULL && route(n, r) == key_port(in->keys[k]));
		SIM_ASSERT(link_ready_at(in->l, k) == in->ready[k]);
	}
	SIM_ASSERT(in->nvis == n->offer || in->nvis == occ || link_ready_at(in->l, in->nvis) > now);
	for (uint32_t j = 0; j < in->noff; j++) {
		SIM_ASSERT(in->ok[j] < in->nvis && key_port(in->keys[in->ok[j]]) == in->okey[j]);
		SIM_ASSERT(j == 0 || in->ok[j - 1] < in->ok[j]);
		SIM_ASSERT(in->obits[in->okey[j] / 64] & (1ull << (in->okey[j] % 64)));
		for (k = 0; k < in->ok[j]; k++)
			SIM_ASSERT(key_port(in->keys[k]) != in->okey[j]);
	}
	for (k = 0; k < in->nvis; k++) {
		uint32_t j;

		for (j = 0; j < in->noff && in->okey[j] != key_port(in->keys[k]); j++)
			;
		SIM_ASSERT(j < in->noff);
	}
	{
		uint32_t bits = 0;

		for (k = 0; k < (n->nout + 63) / 64; k++)
			bits += (uint32_t)bits_pop64(in->obits[k]);
		SIM_ASSERT(bits == in->noff);
	}
#endif
	return in->noff;
}

/* Pops input i's packet k places behind its head (k = 0: the head) for output o at cycle now and
 * starts serialising it. */
static void xbar_pop(struct xbar *x, struct xbar_network *n, uint32_t i, uint32_t k, uint32_t oi,
		     cycle_t now)
{
	struct xbar_in *in = &n->in[i];
	struct xbar_out *o = &n->out[oi];
	cycle_t ready, head_since;
	struct mem_req *r;
	uint32_t bytes, ser;
	struct xbar_slot *s;

	SIM_ASSERT(k < in->nvis); /* xbar_arbitrate picks only offers, after in_offers */
	ready = in->ready[k]; /* kept by in_offers (its debug check: the link's) */
	head_since = ready;
	bytes = x->p.header_bytes + key_data(in->keys[k]);
	r = k == 0 ? link_pop(in->l) : link_pop_at(in->l, k);
#ifdef SIM_DEBUG
	SIM_ASSERT(bytes == xbar_packet_bytes(&x->p, r, n->id == XBAR_NET_REPLY));
#endif
	ser = xbar_serial_cycles(bytes, n->port_bytes);
	SIM_ASSERT(ready <= now);
	offer_pop(in, k);
	/* Its head time: visible, and the previous head gone (popped in an earlier cycle). */
	if (in->last_pop != CYCLE_NEVER && in->last_pop + 1 > head_since)
		head_since = in->last_pop + 1;
	SIM_ASSERT(head_since <= now);
	in->st.stall_busy += now - head_since;
	n->tot.stall_busy += now - head_since;
	in->st.packets++;
	in->st.bytes += bytes;
	in->last_pop = now;
	/* a slice's data path moves the data; the header travels beside it */
	if (n->in_bytes > 0)
		in->busy_until = now + xbar_serial_cycles(bytes > x->p.header_bytes ?
							  bytes - x->p.header_bytes : 0,
							  n->in_bytes);
	if (n->qdelay != NULL)
		stats_dist_add(n->qdelay, (double)(now - ready));
	/* stamps only: the request is not read (see make_key) */
	req_enter_blind(r, n->stage, clock_tick_of(x->clk, ready));

	o->busy_until = now + ser;
	o->st.packets++;
	o->st.bytes += bytes;
	o->st.busy_cycles += ser;
	n->tot.packets++;
	n->tot.bytes += bytes;
	n->tot.busy_cycles += ser;
	SIM_ASSERT(o->count < x->pipe_cap);
	s = pipe_slot(x, o, o->count);
	s->r = r;
	s->ready = now + ser + x->p.latency_cycles;
	o->count++;
	n->out_busy[oi / 64] |= 1ull << (oi % 64);
	o->rr = i + 1 == n->nin ? 0 : i + 1;
	n->popped++;
}

/*
 * Step 2: one iSLIP iteration over the packets the inputs offer (the network's arbiter,
 * xbar.arbiter or xbar.reply_arbiter: with islip and age each input's oldest visible packet for
 * every output, its virtual output queues; with fifo only its head, and then an input has at
 * most one grant, so the match is plain round-robin at each output and head-of-line blocking
 * stays; with age the grant and the accept go to the oldest packet instead of the round-robin
 * order, which only breaks a grant's ties):
 *   request: each input that may send offers, for every output, its oldest visible packet for
 *            it (later packets for the same output wait behind it: per-pair order is kept);
 *   grant:   each free output grants the requesting input next from its pointer rr;
 *   accept:  each granted input accepts the granting output next from its pointer arr, and pops
 *            that packet; both pointers move past the match (a refused grant moves nothing).
 */
static void xbar_arbitrate(struct xbar *x, struct xbar_network *n, cycle_t now)
{
	uint32_t w, i, j, oi, noff, ntouched = 0, ngranted = 0;
	bool by_age = n->arbiter == XBAR_ARB_AGE;
	cycle_t age;

	for (w = 0; w < (n->nin + 63) / 64; w++)
	for (uint64_t bits = n->in_busy[w]; bits != 0; bits &= bits - 1) {
		struct xbar_in *in;
		uint32_t occ;

		i = w * 64 + (uint32_t)__builtin_ctzll(bits);
		in = &n->in[i];
		occ = link_occupancy(in->l);
		if (occ == 0) {
			n->in_busy[w] &= ~(1ull << (i % 64));
			continue;
		}
		if (in->busy_until > now)
			continue;
		if (now < in->retry_at && occ == in->scan_occ)
			continue; /* nothing it holds can be picked yet (xbar_next) */
		noff = in_offers(n, in, now);
		for (j = 0; j < noff; j++) {
			struct xbar_out *o;
			uint32_t dist, k;

			oi = in->okey[j];
			o = &n->out[oi];
			if (!out_can_pick(x, o, now))
				continue;
			k = in->ok[j];
			dist = rr_dist(i, o->rr, n->nin);
			age = by_age ? in->ready[k] : 0;
			if (o->win == NO_INPUT)
				n->touched[ntouched++] = oi;
			else if (age > o->win_age || (age == o->win_age && dist >= o->win_dist))
				continue;
			o->win = i;
			o->win_dist = dist;
			o->win_k = k;
			o->win_age = age;
		}
	}
	for (j = 0; j < ntouched; j++) {
		struct xbar_out *o;
		struct xbar_in *in;
		uint32_t dist;

		oi = n->touched[j];
		o = &n->out[oi];
		in = &n->in[o->win];
		/* age: an input's packets are in the order they came, so its oldest grant is the one
		 * nearest its head */
		dist = by_age ? o->win_k : rr_dist(oi, in->arr, n->nout);

		if (in->acc == NO_INPUT)
			n->granted[ngranted++] = o->win;
		else if (dist >= in->acc_dist)
			continue;
		in->acc = oi;
		in->acc_dist = dist;
	}
	for (j = 0; j < ntouched; j++) {
		struct xbar_out *o;
		struct xbar_in *in;

		oi = n->touched[j];
		o = &n->out[oi];
		in = &n->in[o->win];
		if (in->acc == oi) {
			xbar_pop(x, n, o->win, o->win_k, oi, now);
			in->arr = oi + 1 == n->nout ? 0 : oi + 1;
		}
		o->win = NO_INPUT;
	}
	for (j = 0; j < ngranted; j++)
		n->in[n->granted[j]].acc = NO_INPUT;
}

/* For xbar_next: the earliest cycle after now at which one of the packets in offers may be
 * picked, or at which a packet behind them becomes visible and would be offered; CYCLE_NEVER if
 * only full pipelines hold them (a delivery wakes us). *full: one of them waits for one. */
static cycle_t islip_next(const struct xbar *x, const struct xbar_network *n,
			  struct xbar_in *in, cycle_t now, bool *full)
{
	const struct link *l = in->l;
	cycle_t next = CYCLE_NEVER;
	uint32_t j, noff = in_offers(n, in, now), k = in->nvis;

	*full = false;
	for (j = 0; j < noff; j++) {
		const struct xbar_out *o = &n->out[in->okey[j]];

		if (o->busy_until > now) {
			if (o->busy_until < next)
				next = o->busy_until;
		} else if (o->count < x->pipe_cap) {
			return now + 1; /* lost arbitration, or its grant was not accepted */
		} else {
			*full = true; /* its delivery (or a pop) wakes us */
		}
	}
	/* the next packet to become visible, when it would be offered */
	if (k < n->offer && k < link_occupancy(l) && link_ready_at(l, k) < next)
		next = link_ready_at(l, k);
	return next;
}

/* islip_next for input i, remembered (retry_at) until its link's occupancy changes, so that an
 * input whose packets all wait for busy outputs is not scanned again every cycle (the scan is
 * O(packets) where fifo looks at one head). Not remembered when a packet waits for a full
 * pipeline: a delivery, at a time not known here, frees it. */
static cycle_t islip_next_cached(const struct xbar *x, struct xbar_network *n, uint32_t i,
				 cycle_t now)
{
	struct xbar_in *in = &n->in[i];
	uint32_t occ = link_occupancy(in->l);
	bool full;
	cycle_t c;

	if (now < in->retry_at && occ == in->scan_occ)
		return in->retry_at;
	c = islip_next(x, n, in, now, &full);
	in->retry_at = full ? now + 1 : c;
	in->scan_occ = occ;
	return c;
}

/* Step 3 for one network: the earliest cycle after now at which it has something to do. It
 * stops at the first input or output that answers now + 1, which none can beat: on a busy
 * crossbar most cycles have an input whose packet lost arbitration, and the inputs after it
 * are not looked at (their retry_at, where one was remembered, still holds: islip_next_cached). */
static cycle_t xbar_next(const struct xbar *x, struct xbar_network *n, cycle_t now)
{
	cycle_t next = CYCLE_NEVER;
	uint32_t w, i;

	for (w = 0; w < (n->nin + 63) / 64; w++)
	for (uint64_t bits = n->in_busy[w]; bits != 0; bits &= bits - 1) {
		cycle_t c;

		i = w * 64 + (uint32_t)__builtin_ctzll(bits);
		c = link_head_ready(n->in[i].l);
		if (c == CYCLE_NEVER)
			continue;
		if (c <= now && n->in[i].busy_until > now)
			c = n->in[i].busy_until; /* the input is still sending its last packet */
		else if (c <= now)
			c = islip_next_cached(x, n, i, now); /* offered packets not picked */
		if (c < next) {
			next = c;
			if (next == now + 1)
				return next;
		}
	}
	for (w = 0; w < (n->nout + 63) / 64; w++)
	for (uint64_t bits = n->out_busy[w]; bits != 0; bits &= bits - 1) {
		const struct xbar_out *o = &n->out[w * 64 + (uint32_t)__builtin_ctzll(bits)];

		/* A due head was refused: the output link's pop wakes us. */
		if (o->count > 0 && o->slots[o->head].ready > now && o->slots[o->head].ready < next) {
			next = o->slots[o->head].ready;
			if (next == now + 1)
				return next;
		}
	}
	return next;
}

static void xbar_tick(void *unit, cycle_t now)
{
	struct xbar *x = unit;
	cycle_t next = CYCLE_NEVER;
	int k;

	for (k = 0; k < XBAR_NET_COUNT; k++) {
		struct xbar_network *n = &x->net[k];
		cycle_t c;

		xbar_deliver(x, n, now);
		xbar_arbitrate(x, n, now);
		if (next == now + 1)
			continue; /* the next cycle already: the other network cannot say sooner */
		c = xbar_next(x, n, now);
		if (c < next)
			next = c;
	}
	clock_sleep_until(x->unit, next);
}

/* ---------------------------------------------------------------------------------------------
 * Watchdog and invariants
 */

static void dump_net(const struct xbar *x, const struct xbar_network *n, FILE *out)
{
	uint32_t i;

	fprintf(out, "  %s: popped %llu, delivered %llu, port %u B/cycle\n", net_names[n->id],
		(unsigned long long)n->popped, (unsigned long long)n->delivered, n->port_bytes);
	for (i = 0; i < n->nin; i++) {
		if (link_occupancy(n->in[i].l) == 0)
			continue;
		fputs("    ", out);
		link_dump(n->in[i].l, out);
	}
	for (i = 0; i < n->nout; i++) {
		const struct xbar_out *o = &n->out[i];

		if (o->count == 0 && o->full_since == CYCLE_NEVER)
			continue;
		fprintf(out, "    out%u: busy until %llu, rr %u, pipeline %u/%u", i,
			(unsigned long long)o->busy_until, o->rr, o->count, x->pipe_cap);
		if (o->count > 0)
			fprintf(out, ", head req %llu ready %llu",
				(unsigned long long)o->slots[o->head].r->id,
				(unsigned long long)o->slots[o->head].ready);
		if (o->full_since != CYCLE_NEVER)
			fprintf(out, ", output link full since %llu",
				(unsigned long long)o->full_since);
		fputc('\n', out);
	}
}

void xbar_dump(const struct xbar *x, FILE *out)
{
	int k;

	fprintf(out, "xbar %s: cycle %llu, %s, %llu packets inside\n", clock_unit_name(x->unit),
		(unsigned long long)clock_cycle(x->clk),
		clock_is_awake(x->unit) ? "awake" : "asleep", (unsigned long long)xbar_pending(x));
	for (k = 0; k < XBAR_NET_COUNT; k++)
		dump_net(x, &x->net[k], out);
}

void xbar_check(const struct xbar *x)
{
	int k;

	for (k = 0; k < XBAR_NET_COUNT; k++) {
		const struct xbar_network *n = &x->net[k];
		uint64_t inside = 0;
		uint32_t i, j;

		for (i = 0; i < n->nout; i++) {
			const struct xbar_out *o = &n->out[i];

			SIM_ASSERT(o->count <= x->pipe_cap && o->head < x->pipe_cap);
			SIM_ASSERT(o->rr < n->nin);
			SIM_ASSERT(o->win == NO_INPUT);
			SIM_ASSERT(o->full_since == CYCLE_NEVER || o->count > 0);
			for (j = 0; j < o->count; j++) {
				const struct xbar_slot *s = pipe_slot(x, o, j);

				SIM_ASSERT(s->r != NULL);
				SIM_ASSERT(route(n, s->r) == i);
				SIM_ASSERT(s->r->stage == n->stage);
				if (j > 0)
					SIM_ASSERT(pipe_slot(x, o, j - 1)->ready <= s->ready);
			}
			inside += o->count;
		}
		SIM_ASSERT(n->popped == n->delivered + inside);
		for (i = 0; i < n->nin; i++) {
			SIM_ASSERT(n->in[i].acc == NO_INPUT && n->in[i].arr < n->nout);
			link_check(n->in[i].l);
		}
	}
}
