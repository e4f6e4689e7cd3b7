from pigeon_tui.cli import main

raise SystemExit(main())
