from voyage_tui.cli import main

raise SystemExit(main())
