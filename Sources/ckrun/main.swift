import CKRunCommands

CkrunCommand.main()
