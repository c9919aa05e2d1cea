from .frontends.quick import main

main()
