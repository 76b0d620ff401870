from .fastcli import main

main()
