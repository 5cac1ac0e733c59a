"""The settings of a search (:class:`SearchConfig`), parsed once by a front end and passed
down to :class:`mcts.search.MCTS`."""
from dataclasses import dataclass

DEFAULT_EXPLORATION = 0.7
DEFAULT_CAPACITY = 4_000_000
PRIOR_STATS = ("amaf", "value", "both")      # SearchConfig.prior_stats, in the order of its code


@dataclass
class SearchConfig:
    """Settings of a search.

    exploration: the UCB1 constant c in mean + c * sqrt(ln N / n), rewards in [0, 1]; None
        takes the game's ``exploration_default`` (``DEFAULT_EXPLORATION`` = 0.7 unless the game
        says otherwise: below the theoretical sqrt 2, it kept the exact outcome most often
        among 0.5, 0.7, 1.0 and 1.4 on the solved Connect Four positions in tests/data), or
        with RAVE its ``rave_exploration_default`` (0.05). Go uses 0.2 without RAVE: in
        40-game matches at 2,000 playouts, c = 0.2 beat 0.5 by 33-7, and with RAVE 0.05 beat
        0.2 by 26-14.
    capacity: tree size in nodes; memory is ``capacity * Tree.bytes_per_node(keyed)`` bytes.
    seed: seeds the playouts; every search starts from this seed, so the same position,
        seed and playout budget give the same visit counts.
    solver: MCTS-Solver on (proven wins, losses and draws propagate; a proven root stops the
        search early).
    threads: search threads (the compiled loop releases the GIL), each seeded from ``seed``
        and its index; how they share the work is ``parallel``.
    parallel: "tree": the threads grow one shared tree of ``capacity`` nodes, with virtual
        loss and atomic updates (tree parallelisation, mcts.uct_template.run_playouts); the
        transposition table is then off, and the visit counts depend on how the threads
        interleave, so only one thread is exactly reproducible. "root": root
        parallelisation, each thread its own tree of ``capacity / threads`` nodes, their root
        statistics summed at the end (reproducible with a playout budget for a given seed
        and thread count). None: "tree", except "root" for a game whose transposition table
        is in use (``transpositions`` and a ``position_key`` kernel: Connect Four), which a
        shared tree would lose. One thread: the same search either way.
    reuse: after :meth:`MCTS.advance`, keep the subtree of the moves played.
    early_stop: with a time budget, stop as soon as the most visited move cannot be overtaken
        in the playouts the remaining time allows (the time is better kept for later moves);
        not while a game's exact solver runs in the tree, whose proof of another move would
        overturn the visit counts.
    rave: RAVE / all-moves-as-first statistics in selection (Gelly and Silver 2007); None uses
        the game's default (on for Go). rave_k: the equivalence parameter k of the schedule
        (None: the game's ``rave_k_default``). rave_schedule: "hand", the hand-selected
        b = sqrt(k / (3 n + k)) of Gelly and Silver 2007 (with n visits the AMAF value weighs
        b and the mean value 1 - b, so AMAF dominates the first few hundred visits of a move),
        or "mse", the minimum-MSE b = n_a / (n_a + n + n n_a / k) of Gelly and Silver 2011
        (n_a AMAF playouts); None: the game's ``rave_schedule_default``. rave_distance: the
        extra AMAF weight of moves played soon after a node (Pachi's distance_rave, see
        mcts.rave.amaf_update; 0: every move weighs 1); None: the game's
        ``rave_distance_default``. rave_first_play: AMAF counts a move only when its player
        was the first to play it after the node (MoGo's rule), not whenever that player
        played it; None: the game's ``rave_first_play_default``. rave_ref: GRAVE's ref
        (Cazenave 2015, "Generalized rapid action value estimation"): a node with fewer
        simulations chooses among its children with the AMAF statistics of the deepest node
        above it that has that many and where the same player moves (more samples, less
        specific); 0: every node uses its own; None: the game's ``rave_ref_default``.
    prior_stats: for a game with a ``prior`` kernel, where its virtual playouts count:
        "amaf" (they seed the move's AMAF statistics) or "value" (they join the move's own
        visits and value in selection, as in Pachi and Fuego; without RAVE, UCB1 then counts
        them as virtual visits, Gelly and Silver 2007; with "amaf" and no RAVE they are not
        used) or "both" (they seed the AMAF statistics and join the move's own, so that they
        weigh while the AMAF weight is near 1, at few visits, and after); None: the game's
        ``prior_stats_for(playouts)``, the playouts this search is expected to run (its
        playout budget, or its seconds times the last search's playouts a second; None for
        a first timed search), by default its ``prior_stats_default``.
    transpositions: for a game with a ``position_key`` kernel, a leaf whose position was
        already expanded elsewhere in the tree shares that node's children and proof
        (:mod:`mcts.transpositions`); off, or for other games, the tree stays a tree.
    solve_nodes: for a game with an exact ``solve`` kernel, the solver's budget in its own
        nodes per visit of a tree node (mcts.uct_template.try_solve): a node is offered to the
        solver at ``solve_from`` visits and each doubling after; a settled node is proven.
        None takes the game's ``solve_nodes_default``; 0 turns the solver calls off. Each
        thread's solver keeps its table (games.contract) with its tree: emptied when the tree
        starts afresh, kept when it is reused, so searches stay reproducible.
    replies: last-good-reply with forgetting (Baier and Drake 2010; mcts.replies): each
        thread keeps the replies of the simulations' winners to the move before (LGR-1) and
        to the two moves before (LGR-2), forgets a loser's, and the game's
        ``rollout_replies`` playouts play a stored reply first. The table is emptied when the
        tree starts afresh. None: the game's ``replies_default``; ``ValueError`` for a game
        without that kernel. The learned playout policy, when given, plays without it.
    expand_visits: a leaf gets its children (and the game's priors) once it has this many
        visits; until then its simulations play out from it (Coulom 2006, "Efficient
        selectivity and backup operators in Monte-Carlo tree search"; Pachi's ``expand_p``):
        fewer nodes per playout, so a tree of the same capacity holds a longer search and tree
        reuse copies less. None: the game's ``expand_visits_default`` (1: at a leaf's second
        visit).
    criticality: the weight w of criticality in RAVE selection (Coulom 2009,
        "Criticality: a Monte-Carlo heuristic for Go programs"; Pachi's ``crit_rave`` 1.1):
        a move with more than ``criticality_visits`` visits (Pachi's 2,000) gets w C n_a
        virtual AMAF playouts won, C being the covariance of owning its point at the end and
        winning (mcts.rave.criticality). Needs RAVE and the game's ``owner`` kernel
        (``ValueError`` otherwise); None: the game's ``criticality_default`` (0: off).
    score_bonus: the weight b of the final score in each playout's reward (Fuego's "score
        modification", 0.02 there): a playout scoring s points for the first player rewards
        it ``(1 - b) * win + b * (1 + s / R) / 2``, R the game's ``score_range``
        (mcts.backup.score_reward), so that won (or lost) positions still prefer the larger
        margin. From 0 to 0.5; needs the game's ``score`` kernel (``ValueError`` otherwise);
        None: the game's ``score_bonus_default`` (0: off).
    playout_weights: float64 ``(game.num_features,)``: playouts use the learned softmax
        policy over the game's ``move_features`` with these weights (mcts.playout_template,
        ``cli.py train``) instead of the game's own playout policy; None: the game's own.
    """
    exploration: float = None
    capacity: int = DEFAULT_CAPACITY
    seed: int = 0
    solver: bool = True
    threads: int = 1
    reuse: bool = True
    rave: bool = None
    rave_k: float = None
    rave_schedule: str = None
    rave_distance: float = None
    rave_first_play: bool = None
    rave_ref: int = None
    prior_stats: str = None
    early_stop: bool = True
    transpositions: bool = True
    solve_nodes: float = None
    solve_from: int = 1
    playout_weights: object = None
    parallel: str = None
    replies: bool = None
    expand_visits: int = None
    criticality: float = None
    criticality_visits: int = 2000
    score_bonus: float = None
