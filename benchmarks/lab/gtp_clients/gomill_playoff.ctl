# gomill ringmaster control file (Python 2.7): a short 9x9 playoff, our engine against
# GNU Go, both engines asked for final_score (scorer = 'players'), so ringmaster reports
# "players disagreed" when they name different winners.
# run_gomill.sh copies this file to its work folder (default /tmp/gtp_clients/gomill) and
# sets the commands through the environment:
#   MCTS_CMD   (required) e.g. python3 REPO/cli.py gtp --threads 1 --playouts 300 --rules chinese
#   GNUGO_CMD  default: /usr/games/gnugo --mode gtp --chinese-rules --level 1
#   MCTS_NR_CMD  the same with --resign-threshold 0 (never resigns), so that games reach
#              two passes and both players' final_score are compared
#   GAMES      default: 4 (for each matchup)
# (ringmaster wants competition_type as the first statement)
competition_type = 'playoff'
import os

description = "mcts-engine vs GNU Go level 1, 9x9, komi 7.5, scored by both players"

record_games = True
stderr_to_log = True

players = {
    'mcts': Player(os.environ['MCTS_CMD']),
    'mcts_nr': Player(os.environ.get('MCTS_NR_CMD',
                                     os.environ['MCTS_CMD'] + ' --resign-threshold 0')),
    'gnugo': Player(os.environ.get(
        'GNUGO_CMD', '/usr/games/gnugo --mode gtp --chinese-rules --level 1')),
}

board_size = 9
komi = 7.5
move_limit = 400
scorer = 'players'

matchups = [
    Matchup('mcts', 'gnugo', alternating=True,
            number_of_games=int(os.environ.get('GAMES', '4'))),
    Matchup('mcts_nr', 'gnugo', alternating=True,
            number_of_games=int(os.environ.get('GAMES', '4'))),
]
